# The B-MS-EI scenario tree (src/tree.c) and policy_bmsei() (R/bmsei.R).

tree_setup_box <- function(n = 6, d = 2, seed = 1) {
  set.seed(seed)
  X <- sobol_points(n, d)
  y <- sin(6 * X[, 1]) + cos(4 * X[, d])
  lc <- log(1 + 4 * X[, 1] + rowMeans(X^2))
  list(fit = gp_fit(X, y, lower = rep(0, d), upper = rep(1, d)),
       cost = gp_fit(X, lc, lower = rep(0, d), upper = rep(1, d)), d = d)
}

tree_pack <- function(model, cost_model = NULL, cost = NULL, budget,
                      best = NULL) {
  spec <- costbo:::acq_spec(model, "q1", cost_model, cost, best, budget,
                            NULL, NULL, NULL, call = NULL)
  costbo:::acq_pack(spec)
}

tree_value <- function(pk, m, zf, zc, budget, X, grad = FALSE) {
  .Call(costbo:::C_tree_value, pk, as.integer(m), as.double(zf),
        as.double(zc), budget, X, grad)
}

test_that("a one-step tree is Q1", {
  s <- tree_setup_box()
  pk <- tree_pack(s$fit, s$cost, budget = 3)
  set.seed(2)
  pts <- matrix(runif(20), ncol = 2)
  v <- apply(pts, 1, function(x) {
    tree_value(pk, integer(), double(), double(), 3, matrix(x))$value
  })
  q1 <- acq_evaluate(s$fit, pts, "q1", cost_model = s$cost, remaining = 3)
  expect_equal(v, q1, tolerance = 1e-13)
  g <- tree_value(pk, integer(), double(), double(), 3, matrix(pts[1, ]),
                  grad = TRUE)$grad
  gq <- acq_evaluate(s$fit, pts[1, , drop = FALSE], "q1", cost_model = s$cost,
                     remaining = 3, grad = TRUE)$grad
  expect_equal(drop(g), drop(gq), tolerance = 1e-10)
})

# Central differences of the tree value in all decisions at once, and the
# largest error of the analytic gradient relative to the largest component.
tree_grad_err <- function(pk, m, zf, zc, B, X, h = 1e-5) {
  v <- tree_value(pk, m, zf, zc, B, X, grad = TRUE)
  f <- function(x) tree_value(pk, m, zf, zc, B, matrix(x, nrow(X)))$value
  fd <- ref_grad(f, as.double(X), h = h)
  list(value = v$value, grad = v$grad, fd = matrix(fd, nrow(X)),
       err = max(abs(v$grad - fd)) / max(abs(fd)))
}

test_that("the tree gradient is exact (finite differences), N = 2, 3, 4", {
  s <- tree_setup_box()
  known <- cost_linear(c(0, 0), c(1, 1), a = 1, b = 1)
  for (N in 2:4) {
    for (path in c(FALSE, TRUE)) {
      m <- if (path) rep(1L, N - 1L) else c(3L, 2L, 2L)[seq_len(N - 1L)]
      nn <- sum(cumprod(c(1L, m)))
      set.seed(20 + N)
      zf <- if (path) double(sum(m)) else rnorm(sum(m))
      zc <- if (path) double(sum(m)) else rnorm(sum(m))
      # cheap decisions (small first coordinate), so that later stages count
      X <- rbind(runif(nn, 0.02, 0.2), runif(nn, 0.05, 0.95))
      # a cost GP with a budget that binds on most paths and one at which
      # every node counts; a known cost
      for (cb in list(list("gp", 4), list("gp", 6), list("known", 5.6))) {
        B <- cb[[2]]
        pk <- if (cb[[1]] == "gp") tree_pack(s$fit, s$cost, budget = B)
              else tree_pack(s$fit, cost = known, budget = B)
        r <- tree_grad_err(pk, m, zf, zc, B, X)
        expect_gt(r$value, 1e-3)
        expect_lt(r$err, 1e-5)
        # the fantasy updates matter: the root's gradient is not its own Q1's
        gq <- tree_value(pk, integer(), double(), double(), B,
                         X[, 1, drop = FALSE], grad = TRUE)$grad
        expect_gt(max(abs(r$grad[, 1] - gq)), 1e-2 * max(abs(gq)))
        if (B > 5) expect_true(all(colSums(abs(r$grad)) > 0))
      }
    }
  }
})

test_that("the tree gradient is exact with a jittered factor", {
  # the jitter a factorization may need (set by hand: the value is then
  # another smooth function): the fantasy pivots are var + noise + jitter
  # while the fantasy outcomes use var + noise
  s <- tree_setup_box()
  B <- 8
  pk <- tree_pack(s$fit, s$cost, budget = B)
  pk$model$hyp[s$d + 4] <- 0.05
  pk$cost_model$hyp[s$d + 4] <- 0.02
  m <- c(3L, 2L)
  set.seed(24)
  zf <- rnorm(5)
  zc <- rnorm(5)
  X <- matrix(runif(20, 0.05, 0.95), 2)
  r <- tree_grad_err(pk, m, zf, zc, B, X)
  expect_lt(r$err, 1e-5)
  r0 <- tree_grad_err(tree_pack(s$fit, s$cost, budget = B), m, zf, zc, B, X)
  expect_gt(max(abs(r$grad - r0$grad)), 1e-4 * max(abs(r0$grad)))
})

test_that("the path variant is the tree at the posterior-mean fantasy", {
  # independent check in R: condition the GPs on (x, posterior mean)
  s <- tree_setup_box(d = 1, n = 4)
  B <- 4
  pk <- tree_pack(s$fit, s$cost, budget = B)
  x <- 0.35
  x2 <- 0.8
  v <- tree_value(pk, 1L, 0, 0, B, matrix(c(x, x2), 1))$value
  pf <- predict(s$fit, x)
  pc <- predict(s$cost, x)
  f2 <- costbo:::gp_condition(s$fit, x, pf$mean)
  c2 <- costbo:::gp_condition(s$cost, x, pc$mean)
  ref <- acq_evaluate(s$fit, x, "q1", cost_model = s$cost, remaining = B) +
    acq_evaluate(f2, x2, "q1", cost_model = c2,
                 best = max(s$fit$y, pf$mean),
                 remaining = B - exp(pc$mean))
  expect_equal(v, ref, tolerance = 1e-10)
  # the policy's path variant uses exactly these (zero) base samples
  set.seed(4)
  z <- costbo:::bmsei_base(c(1L, 1L), path = TRUE)
  expect_identical(z, list(zf = c(0, 0), zc = c(0, 0)))
})

test_that("the best value is smoothed where a fantasy outcome ties it", {
  # a base sample that puts the first fantasy outcome at the root exactly on
  # the best observed value: the tree value has a ridge there, smoothed
  # over 1e-5 (standardized) so that the gradient is continuous
  s <- tree_setup_box()
  B <- 6
  pk <- tree_pack(s$fit, s$cost, budget = B)
  X <- matrix(c(0.3, 0.6, 0.1, 0.4, 0.15, 0.8), 2)
  pf <- predict(s$fit, X[, 1])
  best <- max(s$fit$y)
  zf <- c((best - pf$mean) / sqrt(pf$sd^2 + coef(s$fit)$noise), 0.5)
  zc <- c(-0.3, 0.2)
  # steps well inside the smoothed band
  r <- tree_grad_err(pk, 2L, zf, zc, B, X, h = 1e-8)
  expect_lt(r$err, 1e-5)
  f <- function(x) {
    X1 <- X
    X1[1, 1] <- x
    tree_value(pk, 2L, zf, zc, B, X1)$value
  }
  # one-sided slopes away from the ridge differ; within it the gradient
  # moves between them
  h <- 1e-3
  left <- (f(X[1, 1]) - f(X[1, 1] - h)) / h
  right <- (f(X[1, 1] + h) - f(X[1, 1])) / h
  expect_gt(abs(left - right), 0.01 * max(abs(left), abs(right)))
  expect_lt(r$grad[1, 1], max(left, right) + 1e-3)
  expect_gt(r$grad[1, 1], min(left, right) - 1e-3)
  # the value is below the exact tree's by at most 1e-5 / 4 * sd(y)
  y <- pf$mean + sqrt(pf$sd^2 + coef(s$fit)$noise) * zf
  exact <- acq_evaluate(s$fit, X[, 1], "q1", cost_model = s$cost,
                        remaining = B)
  pc <- predict(s$cost, X[, 1])
  for (c in 1:2) {
    l <- pc$mean + sqrt(pc$sd^2 + coef(s$cost)$noise) * zc[c]
    exact <- exact + acq_evaluate(
      costbo:::gp_condition(s$fit, X[, 1], y[c]), X[, 1 + c], "q1",
      cost_model = costbo:::gp_condition(s$cost, X[, 1], l),
      best = max(best, y[c]), remaining = B - exp(l)) / 2
  }
  expect_lte(r$value, exact + 1e-12)
  expect_lt(exact - r$value, 1e-5 / 4 * s$fit$ysd)
})

test_that("a three-step tree equals the recursion over conditioned GPs", {
  # independent check in R: fantasies by gp_condition() (Cholesky row
  # updates), each node's Q1 by acq_evaluate()
  s <- tree_setup_box()
  B <- 6
  m <- c(2L, 2L)
  set.seed(25)
  zf <- rnorm(4)
  zc <- rnorm(4)
  X <- rbind(runif(7, 0.02, 0.3), runif(7, 0.05, 0.95))
  nf <- coef(s$fit)$noise
  nc <- coef(s$cost)$noise
  ref <- function(fit, cfit, k, j, best, spent) {
    if (B - spent <= 0) return(0)
    node <- c(0, 1, 3)[k + 1] + j + 1
    x <- X[, node]
    q <- acq_evaluate(fit, x, "q1", cost_model = cfit, best = best,
                      remaining = B - spent)
    if (k == 2) return(q)
    pf <- predict(fit, x)
    pc <- predict(cfit, x)
    kids <- vapply(1:2, function(c) {
      y <- pf$mean + sqrt(pf$sd^2 + nf) * zf[2 * k + c]
      l <- pc$mean + sqrt(pc$sd^2 + nc) * zc[2 * k + c]
      ref(costbo:::gp_condition(fit, x, y), costbo:::gp_condition(cfit, x, l),
          k + 1, 2 * j + c - 1, max(best, y), spent + exp(l))
    }, numeric(1))
    q + mean(kids)
  }
  pk <- tree_pack(s$fit, s$cost, budget = B)
  expect_equal(tree_value(pk, m, zf, zc, B, X)$value,
               ref(s$fit, s$cost, 0, 0, max(s$fit$y), 0), tolerance = 1e-10)
})

test_that("one-shot optimization reaches the nested optimum (N = 2, d = 1)", {
  skip_on_cran()
  s <- tree_setup_box(d = 1, n = 4)
  B <- 4
  m <- 2L
  zf <- c(-0.7, 1.1)
  zc <- c(0.4, -0.9)
  pk <- tree_pack(s$fit, s$cost, budget = B)
  set.seed(5)
  r <- .Call(costbo:::C_tree_maximize, pk, m, zf, zc, B, 0, 1,
             costbo:::bmsei_tree_control(list(n_raw = 200L, n_starts = 8L,
                                              maxit = 200L, n_greedy = 1L)),
             double())
  # nested reference in R: fantasies by gp_condition(), inner maxima by
  # acq_maximize(), outer maximum on a grid refined by optimize()
  best <- max(s$fit$y)
  nested <- function(x) {
    pf <- predict(s$fit, x)
    pc <- predict(s$cost, x)
    nf <- coef(s$fit)$noise
    nc <- coef(s$cost)$noise
    inner <- vapply(1:2, function(j) {
      y <- pf$mean + sqrt(pf$sd^2 + nf) * zf[j]
      l <- pc$mean + sqrt(pc$sd^2 + nc) * zc[j]
      f2 <- costbo:::gp_condition(s$fit, x, y)
      c2 <- costbo:::gp_condition(s$cost, x, l)
      acq_maximize(f2, "q1", cost_model = c2, best = max(best, y),
                   remaining = B - exp(l), n_raw = 100, n_starts = 4)$value
    }, numeric(1))
    acq_evaluate(s$fit, x, "q1", cost_model = s$cost, remaining = B) +
      mean(inner)
  }
  set.seed(6)
  grid <- seq(0, 1, length.out = 101)
  vg <- vapply(grid, nested, numeric(1))
  i <- which.max(vg)
  o <- optimize(nested, c(grid[max(1, i - 1)], grid[min(101, i + 1)]),
                maximum = TRUE, tol = 1e-6)
  expect_equal(r$value, max(o$objective, vg[i]), tolerance = 1e-4)
  expect_equal(r$x, o$maximum, tolerance = 2e-3)
})

test_that("a two-step tree on a finite domain converges to quadrature", {
  K <- 8
  xs <- seq(0, 1, length.out = K)
  S <- exp(-outer(xs, xs, "-")^2 / (2 * 0.2^2)) + diag(1e-9, K)
  mu <- rep(0, K)
  cost <- c(1, 1, 2, 1, 3, 1, 2, 1)
  noise <- 1e-3
  xo <- c(2L, 7L)
  yo <- c(0.3, -0.2)
  B <- 3.5
  fit <- gp_finite(mu, S, x = xo, y = yo, noise = noise)
  pk <- tree_pack(fit, cost = cost, budget = B)
  # Gauss-Hermite converges slowly on the kinked inner maximum: 400 nodes
  # give about 3 significant digits
  ref <- ref_two_step_finite(mu, S, noise, xo, yo, cost, B, n_gh = 400)
  M <- 2000
  zq <- qnorm((seq_len(M) - 0.5) / M)
  r <- .Call(costbo:::C_tree_argmax, pk, as.integer(M), zq, zq, B)
  expect_equal(r$values, ref, tolerance = 2e-3)
  expect_equal(r$index, which.max(ref))
  M0 <- 10L
  r0 <- .Call(costbo:::C_tree_argmax, pk, M0,
              qnorm((seq_len(M0) - 0.5) / M0), double(M0), B)
  expect_lt(max(abs(r$values - ref)), max(abs(r0$values - ref)) / 3)
  set.seed(7)
  zr <- rnorm(M)
  r2 <- .Call(costbo:::C_tree_argmax, pk, as.integer(M), zr, zr, B)
  expect_equal(r2$values, ref, tolerance = 0.05)
})

test_that("budget: no value after the path's cost exceeds the tree budget", {
  s <- tree_setup_box()
  unit <- 1
  set.seed(8)
  m <- c(2L, 2L)
  zf <- rnorm(4)
  zc <- rnorm(4)
  X <- matrix(runif(2 * 7, 0.05, 0.95), 2)
  X[, 1] <- c(0.2, 0.05)
  val <- function(B, m, X) {
    tree_value(tree_pack(s$fit, cost = unit, budget = B), m, zf, zc, B, X)$value
  }
  # cost 1 per evaluation: with budget 1.5 only the root counts, with 2.5
  # the first two stages
  q1 <- acq_evaluate(s$fit, X[, 1], "q1", cost = unit, remaining = 1.5)
  expect_equal(val(1.5, m, X), q1, tolerance = 1e-14)
  expect_equal(val(2.5, m, X), val(2.5, m[1], X[, 1:3]), tolerance = 1e-14)
  expect_gt(val(3.5, m, X), val(2.5, m, X))
  # a budget too small for any evaluation: value 0
  expect_identical(val(0.5, m, X), 0)
  pk0 <- tree_pack(s$fit, s$cost, budget = 0)
  expect_identical(tree_value(pk0, m, zf, zc, 0, X)$value, 0)
  fin <- gp_finite(rep(0, 4), diag(4), x = 1L, y = 0)
  r <- .Call(costbo:::C_tree_argmax, tree_pack(fin, cost = rep(2, 4),
                                               budget = 1),
             c(2L, 2L), zf, zc, 1)
  expect_identical(r$values, rep(0, 4))
})

test_that("the scheduled budget is reused, then fantasized anew", {
  prob <- test_problem("dropwave", cost_family = "cosine", seed = 1)
  set.seed(9)
  run <- bo_optimize(prob, policy_ei(), seed = 9, max_evaluations = 0,
                     progress = FALSE)
  st <- costbo:::state_fit(run)
  st$memory <- NULL
  set.seed(10)
  b1 <- costbo:::bmsei_budget(st, 4, "ei_pu_cc", "scheduled")
  expect_gt(b1$budget, 0)
  expect_lte(b1$budget, costbo:::state_remaining(st))
  expect_equal(b1$budget, b1$memory$scheduled)
  # an evaluation cheaper than the margin: the old budget minus its cost
  st$memory <- b1$memory
  small <- (b1$memory$scheduled - b1$memory$min_cost) / 2
  st$spent <- st$spent + small
  b2 <- costbo:::bmsei_budget(st, 4, "ei_pu_cc", "scheduled")
  expect_equal(b2$budget, b1$budget - small, tolerance = 1e-12)
  # below the cheapest fantasized cost: a new fantasy budget
  st$memory <- b2$memory
  st$spent <- st$spent + b2$budget
  b3 <- costbo:::bmsei_budget(st, 4, "ei_pu_cc", "scheduled")
  expect_gt(b3$budget, b2$memory$min_cost)
  # the remaining rule
  expect_equal(costbo:::bmsei_budget(st, 4, "ei_pu_cc", "remaining")$budget,
               costbo:::state_remaining(st))
})

theorem1_problem <- function(eps, delta, values) {
  K <- ceiling((1 + delta) / eps)
  cand <- matrix(0:(K + 1), ncol = 1)
  cost <- c(eps, rep(eps, K), 1 + delta)
  bo_problem(function(x) values[x + 1], cost = function(x) cost[x + 1],
             budget = 1 + delta, candidates = cand,
             prior = list(mean = rep(0, K + 2),
                          cov = diag(c(1, rep(eps^2, K), 1))))
}

test_that("Theorem 1: B-MS-EI takes the expensive point, EI-PU cheap ones", {
  skip_on_cran()
  eps <- 0.25
  delta <- 0.1
  K <- ceiling((1 + delta) / eps)
  init <- data.frame(x1 = 0, value = 0)
  prob <- theorem1_problem(eps, delta, rep(0, K + 2))
  # the theorem's setting: the known initial point is free, and a run ends
  # when the next point does not fit
  s_b <- bo_session(prob, policy_bmsei(steps = 2, budget_rule = "remaining"),
                    initial = init, charge_initial = FALSE)
  s_e <- bo_session(prob, policy_ei_pu(), initial = init,
                    charge_initial = FALSE)
  set.seed(11)
  expect_equal(as.numeric(bo_ask(s_b)), K + 1)
  expect_true(as.numeric(bo_ask(s_e)) %in% 1:K)
  # the default 4-step tree agrees
  s_4 <- bo_session(prob, policy_bmsei(budget_rule = "remaining"),
                    initial = init, charge_initial = FALSE)
  expect_equal(as.numeric(bo_ask(s_4)), K + 1)
  # repeated runs on draws from the prior
  reps <- 40
  set.seed(12)
  fin <- matrix(0, reps, 2)
  for (r in seq_len(reps)) {
    vals <- c(0, eps * rnorm(K), rnorm(1))
    pr <- theorem1_problem(eps, delta, vals)
    rb <- bo_optimize(pr, policy_bmsei(steps = 2, budget_rule = "remaining"),
                      initial = init, seed = r, progress = FALSE,
                      charge_initial = FALSE, budget_rule = "stop")
    re <- bo_optimize(pr, policy_ei_pu(), initial = init, seed = r,
                      progress = FALSE, charge_initial = FALSE,
                      budget_rule = "stop")
    fin[r, ] <- c(summary(rb)$best_value, summary(re)$best_value)
    # B-MS-EI's value is exactly max(0, f(expensive point))
    expect_equal(fin[r, 1], max(0, vals[K + 2]))
  }
  exact_b <- dnorm(0) # E[max(0, Z)]
  exact_e <- ref_theorem1_eipu(eps, delta)
  expect_gt(exact_b, exact_e)
  expect_gt(mean(fin[, 1]), mean(fin[, 2]))
  se <- apply(fin, 2, sd) / sqrt(reps)
  expect_lt(abs(mean(fin[, 1]) - exact_b), 3 * se[1])
  expect_lt(abs(mean(fin[, 2]) - exact_e), 3 * se[2])
})

test_that("policy_bmsei runs reproducibly and records the tree budget", {
  skip_on_cran()
  prob <- test_problem("dropwave", cost_family = "cosine", seed = 2)
  pol <- policy_bmsei(steps = 2, fantasies = 2, n_raw = 50, n_starts = 2)
  r1 <- bo_optimize(prob, pol, seed = 3, max_evaluations = 3,
                    progress = FALSE)
  r2 <- bo_optimize(prob, pol, seed = 3, max_evaluations = 3,
                    progress = FALSE)
  d1 <- as.data.frame(r1)
  d2 <- as.data.frame(r2)
  expect_identical(d1[c("x1", "x2", "value", "cost", "fantasy_budget")],
                   d2[c("x1", "x2", "value", "cost", "fantasy_budget")])
  fb <- d1$fantasy_budget[d1$phase == "bo"]
  expect_length(fb, 3)
  expect_true(all(fb > 0 & fb <= prob$budget))
  rp <- bo_optimize(prob, policy_bmsei(steps = 3, path = TRUE), seed = 3,
                    max_evaluations = 2, progress = FALSE)
  expect_identical(nrow(as.data.frame(rp)), 8L)
})

# A fixed state of paper 000's protocol: n evaluations of a uniformly
# random design, both GPs in the reference's noise band, the scheduled tree
# budget (as bench/tree-quality.R builds its states).
tree_quality_state <- function(name, n, s) {
  prob <- test_problem(name, cost_family = "cosine", seed = s)
  d <- prob$d
  set.seed(100 + s)
  U <- matrix(runif(n * d), n, d)
  X <- sweep(sweep(U, 2, prob$upper - prob$lower, "*"), 2, prob$lower, "+")
  ev <- lapply(seq_len(n), function(i) prob$objective(X[i, ]))
  init <- data.frame(X, value = vapply(ev, `[[`, 0, "value"),
                     cost = vapply(ev, `[[`, 0, "cost"))
  names(init)[seq_len(d)] <- paste0("x", seq_len(d))
  band <- list(noise_floor = 1e-4, noise_ceiling = 1e-3)
  st <- bo_session(prob, policy_bmsei(), initial = init,
                   gp_args = c(band, list(cost = band)))
  set.seed(200 + s)
  st <- costbo:::state_fit(st)
  budget <- costbo:::bmsei_budget(st, 4L, "ei_pu_cc", "scheduled")$budget
  list(d = d, budget = budget, pack = costbo:::bmsei_pack(st, budget)$pack)
}

tree_quality_value <- function(st, fantasies, path, ctl, seed) {
  set.seed(301)
  z <- costbo:::bmsei_base(fantasies, path)
  set.seed(seed)
  ctl <- costbo:::bmsei_control(ctl, st$d)
  .Call(costbo:::C_tree_maximize, st$pack, fantasies, z$zf, z$zc,
        st$budget, rep(0, st$d), rep(1, st$d),
        costbo:::bmsei_tree_control(ctl), double())$value
}

test_that("the default tree optimizer reaches a 10x heavier one's value", {
  skip_on_cran()
  # Dropwave, n = 10: the state where costbo 0.1.0's settings reached 82%
  # (full tree) and 93% (path) of the heavier optimization's value
  st <- tree_quality_state("dropwave", 10L, 1L)
  for (path in c(TRUE, FALSE)) {
    def <- costbo:::bmsei_control(list(), st$d)
    heavy <- lapply(def[c("n_raw", "n_starts", "n_greedy")], `*`, 10L)
    m <- if (path) c(1L, 1L, 1L) else c(4L, 4L, 2L)
    v <- tree_quality_value(st, m, path, list(), 1L)
    h <- tree_quality_value(st, m, path, heavy, 2L)
    expect_gt(v, 0)
    expect_gte(v / h, 0.99)
    # the settings of costbo 0.1.0 fall short on this state
    old <- tree_quality_value(st, m, path, list(n_raw = 100L * st$d,
                                                n_starts = 4L * st$d,
                                                maxit = 200L, n_greedy = 0L),
                              1L)
    expect_lt(old / h, 0.99)
  }
})

test_that("policy_bmsei rejects bad arguments", {
  expect_error(policy_bmsei(steps = 0), class = "costbo_error_arg")
  expect_error(policy_bmsei(steps = 3, fantasies = c(4, 4, 2)),
               class = "costbo_error_arg")
  expect_error(policy_bmsei(fantasies = c(4, 0, 2)),
               class = "costbo_error_arg")
  expect_error(policy_bmsei(base = policy_ucb()), class = "costbo_error_arg")
  expect_error(policy_bmsei(budget_rule = "all"), class = "costbo_error_arg")
  expect_error(policy_bmsei(n_rwa = 3), class = "costbo_error_arg")
  expect_error(policy_bmsei(n_starts = -1), class = "costbo_error_arg")
  expect_error(policy_bmsei(n_greedy = -1), class = "costbo_error_arg")
  expect_error(policy_bmsei(maxit = 0), class = "costbo_error_arg")
  expect_error(policy_bmsei(steps = 8, fantasies = rep(8, 7)),
               class = "costbo_error_arg")
  expect_s3_class(policy_bmsei(steps = 3), "bo_policy")
  expect_identical(policy_bmsei(steps = 3)$params$fantasies, c(4L, 4L))
})

test_that("policy_bmsei's tree is capped at 200 nodes", {
  # one proposal on 50 points in d = 2: 2.5 s with 187 nodes, 9 s with 585
  e <- expect_error(policy_bmsei(fantasies = c(6, 6, 5)),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`fantasies` must be a tree of at most 200 nodes",
               fixed = TRUE)
  expect_match(conditionMessage(e), "not 223", fixed = TRUE)
  expect_s3_class(policy_bmsei(fantasies = c(6, 6, 4)), "bo_policy")
  expect_error(policy_bmsei(steps = 2, fantasies = 1000),
               class = "costbo_error_arg")
  expect_s3_class(policy_bmsei(steps = 5), "bo_policy")
  expect_error(policy_bmsei(steps = 6), class = "costbo_error_arg")
  # a path of N steps has N nodes: more steps than the cap are refused at
  # once (not after building vectors of that length)
  e <- expect_error(policy_bmsei(steps = 201, path = TRUE),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`steps` must be a single whole number in [1, 200]",
               fixed = TRUE)
  expect_s3_class(policy_bmsei(steps = 200, path = TRUE), "bo_policy")
})
