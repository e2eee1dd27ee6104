# The multi-information-source model, problems and policies.

miso_data <- function(seed = 1, n = 8) {
  set.seed(seed)
  X <- matrix(runif(2 * n), ncol = 2)
  s <- rep(0:1, length.out = n)
  y <- sin(5 * X[, 1]) + X[, 2]^2 + s * 0.3 * cos(4 * X[, 2])
  list(X = X, s = s, y = y)
}

test_that("the multi-source kernel matches a hand computation", {
  set.seed(2)
  X <- matrix(runif(30), ncol = 2)
  s <- rep(0:2, 5)
  y <- sin(4 * X[, 1]) + X[, 2] + 0.2 * s
  fit <- gp_fit_miso(X, s, y, lower = c(0, 0), upper = c(1, 1))
  d <- 2L
  nj <- fit$hyp[d + 3L] + fit$hyp[d + 5L]
  K <- (fit$L %*% t(fit$L) - diag(nj, nrow(X))) * fit$ysd^2
  expect_equal(K, ref_miso_kernel(X, s, X, s, coef(fit)), tolerance = 1e-10)
  expect_equal(dim(coef(fit)$bias_lengthscale), c(2L, 2L))
  expect_s3_class(logLik(fit), "logLik")
})

test_that("the multi-source posterior matches a dense computation", {
  dd <- miso_data(3, 12)
  fit <- gp_fit_miso(dd$X, dd$s, dd$y, lower = c(0, 0), upper = c(1, 1))
  set.seed(4)
  Xn <- matrix(runif(10), ncol = 2)
  sn <- c(0, 1, 0, 1, 0)
  p <- predict(fit, cbind(Xn, sn))
  ref <- ref_miso_posterior(fit, Xn, sn)
  expect_equal(p$mean, ref$mean, tolerance = 1e-8)
  expect_equal(p$sd, sqrt(pmax(ref$var, 0)), tolerance = 1e-6)
  # one source is the single-source Matern 5/2 GP with the same parameters
  f1 <- gp_fit_miso(dd$X[dd$s == 0, ], rep(0, 6), dd$y[dd$s == 0],
                    lower = c(0, 0), upper = c(1, 1), estimate = "ml")
  expect_equal(f1$n_sources, 1L)
  expect_error(predict(fit, cbind(Xn, 2)), class = "costbo_error_arg")
  expect_error(predict(fit, cbind(Xn, 0), grad = TRUE),
               class = "costbo_error_arg")
})

test_that("misoKG matches Monte Carlo on a small discretization", {
  prob <- bo_problem(function(x, source) NA, lower = c(0, 0),
                     upper = c(1, 1), budget = 100, sources = 2,
                     source_costs = c(4, 1))
  dd <- miso_data(5, 10)
  s <- bo_session(prob, policy_kg(n_nodes = 20, n_cand = 6),
                  initial = data.frame(x1 = dd$X[, 1], x2 = dd$X[, 2],
                                       value = dd$y, source = dd$s))
  st <- costbo:::state_fit(s)
  fit <- st$models$f
  pts <- rbind(c(0.3, 0.6, 0), c(0.3, 0.6, 1), c(0.8, 0.2, 1))
  set.seed(11)
  kg <- st$policy$acquisition(st, pts)
  set.seed(11)
  cand <- costbo:::sobol_points(6L, 2L)
  A <- rbind(fit$X, cand)
  mc <- vapply(seq_len(nrow(pts)), function(i) {
    x <- pts[i, 1:2]
    sa <- pts[i, 3]
    Aa <- rbind(A, x)
    m0 <- ref_miso_posterior(fit, Aa, rep(0, nrow(Aa)))$mean
    pr <- ref_miso_posterior(fit, matrix(x, 1), sa)
    m_at <- function(y) {
      ref_miso_posterior(fit, Aa, rep(0, nrow(Aa)), matrix(x, 1), sa, y)$mean
    }
    b0 <- m_at(0)
    b1 <- m_at(1) - b0 # the updated mean is linear in y
    set.seed(12)
    y <- pr$mean + sqrt(pr$var + coef(fit)$noise +
                          fit$hyp[fit$d + 5L] * fit$ysd^2) * rnorm(2e5)
    g <- mean(apply(outer(y, b1) + rep(b0, each = length(y)), 1L, max)) -
      max(m0)
    g / c(4, 1)[sa + 1]
  }, 0)
  expect_equal(kg, mc, tolerance = 0.02)
  expect_true(all(kg > 0))
})

test_that("with one source the multi-source rollout is the single-source one", {
  set.seed(6)
  X <- matrix(runif(16), ncol = 2)
  y <- sin(5 * X[, 1]) - (X[, 2] - 0.4)^2
  init <- data.frame(x1 = X[, 1], x2 = X[, 2], value = y)
  one <- bo_problem(function(x) NA, lower = c(0, 0), upper = c(1, 1),
                    cost = 2, budget = 20)
  mis <- bo_problem(function(x, source) NA, lower = c(0, 0),
                    upper = c(1, 1), budget = 20, sources = 1,
                    source_costs = 2)
  pol <- policy_kg_rollout(max_horizon = 3, n_cand = 20,
                           control = list(error_const = 0.01))
  s1 <- costbo:::state_fit(bo_session(one, pol, initial = init))
  sm <- bo_session(mis, pol, initial = cbind(init, source = 0))
  # the same GP: the multi-source kernel with one source is Matern 5/2
  f <- s1$models$f
  g <- f
  class(g) <- c("costbo_gp_miso", "costbo_gp")
  g$kernel <- "miso"
  g$kcode <- 4L
  g$n_sources <- 1L
  g$source <- rep(0L, f$n)
  g$Xs <- cbind(f$Xs, 0)
  g$hyp <- c(f$hyp[1:2], 1, f$hyp[3:6])
  sm$models$f <- g
  for (h in c(1L, 2L, 0L)) {
    p <- policy_kg_rollout(horizon = if (h == 0L) "adaptive" else h,
                           max_horizon = 3, n_cand = 20,
                           control = list(error_const = 0.01))
    s1$policy <- sm$policy <- p
    set.seed(7)
    a <- p$propose(s1)
    set.seed(7)
    b <- p$propose(sm)
    expect_identical(b$source, 0L)
    expect_identical(b$info$h, a$info$h)
    # the same value function (per unit cost 2 with one source) ...
    set.seed(7)
    va <- s1$policy$acquisition(s1, rbind(a$x, b$x))
    set.seed(7)
    vb <- sm$policy$acquisition(sm, rbind(a$x, b$x))
    expect_equal(vb * 2, va, tolerance = 1e-10)
    if (h > 0L) expect_equal(b$info$acquisition * 2, va[2], tolerance = 1e-10)
    # ... maximized by L-BFGS-B (one source, h = 1) or a compass search
    # (several sources): both reach the same maximum to within 5%
    expect_equal(b$info$acquisition * 2, a$info$acquisition, tolerance = 0.05)
  }
  set.seed(8)
  v1 <- s1$policy$acquisition(s1, rbind(c(0.2, 0.3), c(0.7, 0.9)))
  set.seed(8)
  vm <- sm$policy$acquisition(sm, rbind(c(0.2, 0.3), c(0.7, 0.9)))
  expect_equal(vm * 2, v1, tolerance = 1e-10)
})

test_that("the loop records sources, charges their costs, reports source 0", {
  prob <- bo_problem(function(x, source) -sum((x - 0.3)^2) + 0.2 * source,
                     lower = c(0, 0), upper = c(1, 1), budget = 12,
                     sources = 2, source_costs = c(5, 1), optimum = 0)
  # a free design (the papers' protocol), so that the budget pays for the
  # optimization's choices of source
  run <- bo_optimize(prob, policy_kg(n_cand = 20), n_init = 3, seed = 1,
                     charge_initial = FALSE, progress = FALSE)
  df <- as.data.frame(run)
  expect_true("source" %in% names(df))
  expect_identical(df$source[df$phase == "initial"], rep(0:1, 3))
  expect_equal(df$cost, c(5, 1)[df$source + 1])
  bo <- df$phase == "bo"
  expect_equal(run$spent, sum(df$cost[bo]))
  expect_lte(run$spent, 12)
  sm <- summary(run)
  expect_equal(sm$best_value, max(df$value[df$source == 0]))
  expect_equal(sm$regret, -sm$best_value)
  # a session asks for a pair and charges the source's cost
  s <- bo_session(prob, policy_kg(n_cand = 10),
                  initial = df[df$phase == "initial", c("x1", "x2", "value",
                                                        "source")],
                  charge_initial = FALSE)
  set.seed(2)
  x <- bo_ask(s)
  expect_true(attr(x, "source") %in% 0:1)
  s <- bo_tell(s, x, value = 0.1)
  expect_equal(s$spent, c(5, 1)[attr(x, "source") + 1])
  expect_error(bo_tell(s, as.numeric(x), value = 0.1),
               class = "costbo_error_arg")
  # charged (the default), the design pays its sources' costs, 5 + 1 per
  # point, and ends at its first point that does not fit: the third point's
  # costly source would take the spend past 12 after 5 + 1 + 5 + 1
  run <- bo_optimize(prob, policy_kg(n_cand = 20), n_init = 3, seed = 1,
                     progress = FALSE)
  df <- as.data.frame(run)
  expect_identical(df$source, c(0L, 1L, 0L, 1L))
  expect_identical(df$phase, rep("initial", 4))
  expect_equal(df$cumulative_cost, cumsum(c(5, 1, 5, 1)))
  expect_equal(run$spent, 12)
  expect_identical(run$stop_code, "budget")
})

test_that("the multi-source test problems follow the papers", {
  p <- test_problem_miso("rosenbrock")
  expect_equal(p$source_costs, c(1000, 1))
  expect_equal(p$objective(c(1, 1), 0), 0)
  expect_equal(p$objective(c(1, 1), 1), 0.1 * sin(15))
  g <- test_problem_miso("goldstein_price")
  expect_equal(g$n_sources, 3L)
  expect_equal(g$objective(c(0, -1), 0), -3)
  expect_equal(g$objective(c(0, -1), 1), -3 + 2 * sin(-5))
  expect_equal(g$budget, 40)
})

test_that("bad multi-source arguments are rejected, naming the argument", {
  f <- function(x, source) 0
  expect_error(bo_problem(f, 0, 1, budget = 1, sources = 2),
               class = "costbo_error_arg")
  expect_error(bo_problem(f, 0, 1, budget = 1, sources = 2,
                          source_costs = c(1, -1)),
               class = "costbo_error_arg")
  expect_error(bo_problem(f, 0, 1, budget = 1, sources = 2,
                          source_costs = 1:3),
               class = "costbo_error_arg")
  expect_error(bo_problem(f, 0, 1, budget = 1, cost = 1, sources = 2,
                          source_costs = c(2, 1)),
               class = "costbo_error_arg")
  expect_error(bo_problem(f, 0, 1, budget = 1, source_costs = c(2, 1)),
               class = "costbo_error_arg")
  prob <- bo_problem(f, 0, 1, budget = 1, sources = 2, source_costs = c(2, 1))
  expect_error(bo_optimize(prob, policy_ei()), class = "costbo_error_arg")
  expect_error(gp_fit_miso(matrix(1:4), c(0, 1, 0.5, 1), 1:4),
               class = "costbo_error_arg")
  expect_error(gp_fit_miso(matrix(1:4), c(0, 1, 2, 1), 1:4, n_sources = 2),
               class = "costbo_error_arg")
  expect_snapshot(bo_problem(f, 0, 1, budget = 1, sources = 2,
                             source_costs = "a"), error = TRUE)
})

test_that("acquisitions of a multi-source fit match the closed forms of its posterior", {
  dd <- miso_data(5, 12)
  fit <- gp_fit_miso(dd$X, dd$s, dd$y, lower = c(0, 0), upper = c(1, 1))
  nd <- rbind(c(0.2, 0.9, 0), c(0.8, 0.9, 0), c(0.5, 0.5, 1), c(0.1, 0.3, 0))
  ref <- ref_miso_posterior(fit, nd[, 1:2], nd[, 3])
  m <- ref$mean
  s <- sqrt(pmax(ref$var, 0))
  # the incumbent of a multi-source model: its best objective observation
  best <- max(dd$y[dd$s == 0])
  u <- (m - best) / s
  ei <- s * (u * pnorm(u) + dnorm(u))
  v <- acq_evaluate(fit, nd, "ei")
  expect_equal(v, ei, tolerance = 1e-6)
  expect_true(all(v > 0))
  expect_equal(acq_evaluate(fit, nd, "ucb", beta = 1.5), m + 1.5 * s,
               tolerance = 1e-8)
  expect_equal(acq_evaluate(fit, nd, "ei_pu", cost = 4), ei / 4,
               tolerance = 1e-6)
  # a cost function of the (x, source) rows, evaluated in R
  cf <- function(x) 1 + 9 * (x[, 3] == 0)
  expect_equal(acq_evaluate(fit, nd, "ei_pu", cost = cf), ei / cf(nd),
               tolerance = 1e-6)
  a <- acq_maximize(fit, "ei", candidates = nd)
  expect_equal(a$x, nd[which.max(ei), ])
  expect_equal(a$value, max(ei), tolerance = 1e-6)
  # what a multi-source fit cannot give, named
  expect_error(acq_evaluate(fit, nd, "ei", grad = TRUE),
               class = "costbo_error_arg")
  expect_error(acq_maximize(fit, "ei"), class = "costbo_error_arg")
  expect_error(acq_evaluate(fit, nd, "ei_pu", cost_model = fit),
               class = "costbo_error_arg")
  expect_error(acq_expected_ucb(fit, 0.3, controlled = 1,
                                samples = matrix(0.5, 4, 2)),
               class = "costbo_error_arg")
})

test_that("gp_condition() takes the rows (x, source) of a multi-source fit", {
  dd <- miso_data(6, 10)
  fit <- gp_fit_miso(dd$X, dd$s, dd$y, lower = c(0, 0), upper = c(1, 1))
  xa <- rbind(c(0.3, 0.4), c(0.7, 0.2))
  sa <- c(1, 0)
  ya <- c(0.5, -0.2)
  fit2 <- gp_condition(fit, cbind(xa, sa), ya)
  expect_equal(fit2$n, 12L)
  expect_equal(fit2$source, c(dd$s, sa))
  expect_equal(unname(fit2$X), unname(rbind(dd$X, xa)))
  Xn <- rbind(c(0.31, 0.41), c(0.9, 0.9))
  sn <- c(0, 1)
  p <- predict(fit2, cbind(Xn, sn))
  ref <- ref_miso_posterior(fit, Xn, sn, xa = xa, sa = sa, y = ya)
  expect_equal(p$mean, ref$mean, tolerance = 1e-8)
  expect_equal(p$sd, sqrt(pmax(ref$var, 0)), tolerance = 1e-6)
  expect_error(gp_condition(fit, xa, ya), class = "costbo_error_arg")
})

test_that("joint samples of a multi-source fit have its posterior moments", {
  dd <- miso_data(7, 10)
  fit <- gp_fit_miso(dd$X, dd$s, dd$y, lower = c(0, 0), upper = c(1, 1))
  nd <- rbind(c(0.25, 0.5, 0), c(0.25, 0.5, 1))
  sm <- simulate(fit, nsim = 20000, seed = 3, newdata = nd)
  ref <- ref_miso_posterior(fit, nd[, 1:2], nd[, 3])
  # Monte Carlo: 20000 draws, standard error sd / 141
  expect_lt(max(abs(rowMeans(sm) - ref$mean)), 5 * max(sqrt(ref$var)) / 141)
  expect_equal(apply(sm, 1L, var), ref$var, tolerance = 0.05)
})

test_that("the number of sources is bounded, so a stray label cannot hang the fit", {
  dd <- miso_data(8, 8)
  s <- dd$s
  s[3] <- 1e6
  expect_error(gp_fit_miso(dd$X, s, dd$y), class = "costbo_error_arg")
  expect_error(gp_fit_miso(dd$X, dd$s, dd$y, n_sources = 101),
               class = "costbo_error_arg")
  s[3] <- 99
  expect_error(gp_fit_miso(dd$X, s, dd$y, n_sources = 99),
               class = "costbo_error_arg")
})

test_that("predict() and acquisitions of a three-source fit match the dense posterior of the kernel formula", {
  set.seed(17)
  n <- 15
  X <- matrix(runif(2 * n), ncol = 2)
  s <- rep(0:2, length.out = n)
  y <- sin(5 * X[, 1]) + X[, 2]^2 + 0.3 * (s == 1) * cos(4 * X[, 2]) -
    0.2 * (s == 2) * X[, 1]
  fit <- gp_fit_miso(X, s, y, lower = c(0, 0), upper = c(1, 1))
  # conditioned once more, so that the factor is also the appended one
  fit <- gp_condition(fit, c(0.45, 0.55, 2), 0.7)
  nd <- rbind(c(0.2, 0.9, 0), c(0.8, 0.9, 2), c(0.5, 0.5, 1),
              c(0.1, 0.3, 0), c(0.45, 0.55, 2), c(0.45, 0.55, 0))
  # k((x, s), (x', s')) = k_0(x, x') + 1{s = s' != 0} k_s(x, x'), all
  # Matern 5/2 (gp.h), and the posterior by a dense solve
  ref <- ref_miso_posterior(fit, nd[, 1:2], nd[, 3])
  sd <- sqrt(pmax(ref$var, 0))
  p <- predict(fit, nd)
  expect_equal(p$mean, ref$mean, tolerance = 1e-8)
  expect_equal(p$sd, sd, tolerance = 1e-7)
  best <- max(fit$y[fit$source == 0])
  expect_equal(acq_evaluate(fit, nd, "ei"), ref_ei(ref$mean, sd, best),
               tolerance = 1e-6)
  # (not the silent 0 of a predict routine that forgot the sources)
  ei <- ref_ei(ref$mean, sd, best)
  expect_true(any(ei > 1e-3))
  expect_equal(acq_evaluate(fit, nd, "ei")[ei > 1e-3], ei[ei > 1e-3],
               tolerance = 1e-8)
  expect_equal(acq_evaluate(fit, nd, "ucb", beta = 0.7), ref$mean + 0.7 * sd,
               tolerance = 1e-8)
  # PBGI with one cost per source (a function of the rows, in R) and a
  # constant cost (in C): the g with EI(m, s; g) = lambda c, by uniroot
  lambda <- 0.01
  cf <- function(x) c(10, 2, 1)[x[, 3] + 1]
  g_ref <- vapply(seq_len(nrow(nd)), function(i) {
    h <- function(g) ref_ei(ref$mean[i], sd[i], g) - lambda * cf(nd)[i]
    stats::uniroot(h, ref$mean[i] + c(-20, 20) * sd[i], tol = 1e-12)$root
  }, 0)
  expect_equal(acq_evaluate(fit, nd, "pbgi", cost = cf, lambda = lambda),
               g_ref, tolerance = 1e-7)
  g_c <- vapply(seq_len(nrow(nd)), function(i) {
    h <- function(g) ref_ei(ref$mean[i], sd[i], g) - lambda * 3
    stats::uniroot(h, ref$mean[i] + c(-20, 20) * sd[i], tol = 1e-12)$root
  }, 0)
  expect_equal(acq_evaluate(fit, nd, "pbgi", cost = 3, lambda = lambda), g_c,
               tolerance = 1e-7)
  # the fit as saved by the previous release gives the same numbers
  old <- fit
  class(old) <- "costbo_gp"
  expect_identical(acq_evaluate(old, nd, "ei"), acq_evaluate(fit, nd, "ei"))
  expect_identical(predict(old, nd), p)
})
