# Acquisitions at inputs for fitted models: agreement with the closed forms
# on predicted moments, gradients, maximization and input checks.

acq_fixture <- function(seed = 1, n = 12) {
  set.seed(seed)
  X <- matrix(runif(2 * n), ncol = 2)
  f <- sin(6 * X[, 1]) + X[, 2]
  lc <- log(1 + 5 * X[, 1] + X[, 2]^2)
  list(X = X,
       fit = gp_fit(X, f, lower = c(0, 0), upper = c(1, 1)),
       cost_fit = gp_fit(X, lc, lower = c(0, 0), upper = c(1, 1)),
       cost_fn = function(x) 1 + 5 * x[, 1] + x[, 2]^2)
}

types <- list(
  list(type = "ei"), list(type = "log_ei"), list(type = "ucb", beta = 1.5),
  list(type = "q1", remaining = 5), list(type = "log_q1", remaining = 5),
  list(type = "ei_pu"), list(type = "log_ei_pu"),
  list(type = "ei_pu_cc", nu = 0.4), list(type = "log_ei_pu_cc", nu = 0.4),
  list(type = "pbgi", lambda = 0.05)
)

closed_on_moments <- function(a, fx, x, cost_values = NULL,
                              cost_model = NULL) {
  p <- predict(fx$fit, x)
  cl <- c(list(type = a$type, mean = p$mean, sd = p$sd), a[-1])
  if (!(a$type %in% c("ucb", "pbgi"))) cl$best <- max(fx$fit$y)
  if (a$type %in% c("q1", "log_q1", "ei_pu", "log_ei_pu", "ei_pu_cc",
                    "log_ei_pu_cc", "pbgi")) {
    if (!is.null(cost_model)) {
      pc <- predict(cost_model, x)
      cl$log_cost_mean <- pc$mean
      cl$log_cost_sd <- pc$sd
    } else {
      cl$cost <- cost_values
    }
  }
  do.call(acq_closed_form, cl)
}

test_that("acquisitions at points equal the closed forms on predicted moments", {
  fx <- acq_fixture()
  set.seed(2)
  x <- matrix(runif(20), ncol = 2)
  for (a in types) {
    args <- c(list(fx$fit, x, a$type), a[-1])
    v_gp <- do.call(acq_evaluate, c(args, list(cost_model = fx$cost_fit)))
    expect_equal(v_gp, closed_on_moments(a, fx, x, cost_model = fx$cost_fit),
                 tolerance = 1e-12, info = a$type)
    v_fn <- do.call(acq_evaluate, c(args, list(cost = fx$cost_fn)))
    expect_equal(v_fn, closed_on_moments(a, fx, x, fx$cost_fn(x)),
                 tolerance = 1e-12, info = a$type)
    v_c <- do.call(acq_evaluate, c(args, list(cost = 2.5)))
    expect_equal(v_c, closed_on_moments(a, fx, x, rep(2.5, 10)),
                 tolerance = 1e-12, info = a$type)
  }
})

test_that("gradients in x equal central finite differences", {
  fx <- acq_fixture(seed = 3)
  set.seed(4)
  x <- matrix(runif(10, 0.05, 0.95), ncol = 2)
  for (a in types) {
    for (cost_case in c("gp", "fn", "const")) {
      args <- c(list(fx$fit, type = a$type), a[-1])
      args <- c(args, switch(cost_case, gp = list(cost_model = fx$cost_fit),
                             fn = list(cost = fx$cost_fn),
                             const = list(cost = 2)))
      r <- do.call(acq_evaluate, c(args, list(x = x, grad = TRUE)))
      g <- r$grad
      # where a log acquisition is -Inf (known cost above the budget) the
      # gradient is 0 by convention and has no finite-difference counterpart
      expect_true(all(g[!is.finite(r$value), ] == 0))
      for (i in which(is.finite(r$value))) {
        f1 <- function(z) do.call(acq_evaluate, c(args, list(x = z)))
        fd <- ref_grad(f1, x[i, ], h = 1e-6)
        # the R path differentiates a user cost function numerically
        tol <- if (cost_case == "fn") 1e-4 else 1e-5
        expect_lt(rel_err(g[i, ], fd, floor = 1e-3), tol)
      }
    }
  }
})

test_that("the maximizer finds the maximum of EI on a fine 1-D grid", {
  x <- c(0.05, 0.25, 0.45, 0.7, 0.95)
  fit <- gp_fit(x, -10 * (x - 0.55)^2, lower = 0, upper = 1,
                estimate = "fixed", lengthscale = 0.15, outputscale = 1,
                noise = 1e-6)
  grid <- seq(0, 1, length.out = 200001)
  v <- acq_evaluate(fit, grid, "ei")
  i <- which.max(v)
  expect_gt(i, 1)
  expect_lt(i, length(grid))
  # refine the grid maximum by a local quadratic fit
  x0 <- grid[i] - (v[i + 1] - v[i - 1]) / (2 * (v[i + 1] - 2 * v[i] + v[i - 1])) *
    (grid[2] - grid[1])
  for (select in c("boltzmann", "best")) {
    set.seed(5)
    r <- acq_maximize(fit, "ei", select = select)
    expect_equal(r$x, x0, tolerance = 1e-6)
    expect_gte(r$value, max(v) - 1e-12)
  }
  # with a known cost function the R path finds the same point when the cost
  # is constant
  set.seed(5)
  r2 <- acq_maximize(fit, "ei_pu", cost = function(x) rep(2, nrow(x)))
  expect_equal(r2$x, x0, tolerance = 1e-6)
  expect_equal(r2$value, max(v) / 2, tolerance = 1e-8)
})

test_that("maximization in 2-D beats a dense grid and is reproducible", {
  fx <- acq_fixture(seed = 6, n = 15)
  g <- as.matrix(expand.grid(seq(0, 1, length.out = 201),
                             seq(0, 1, length.out = 201)))
  for (a in list(list(type = "ei_pu_cc", nu = 0.5),
                 list(type = "pbgi", lambda = 0.02))) {
    v <- do.call(acq_evaluate, c(list(fx$fit, g, a$type,
                                      cost_model = fx$cost_fit), a[-1]))
    set.seed(7)
    r <- do.call(acq_maximize, c(list(fx$fit, a$type,
                                      cost_model = fx$cost_fit), a[-1]))
    expect_gte(r$value, max(v) - 1e-10)
    set.seed(7)
    r2 <- do.call(acq_maximize, c(list(fx$fit, a$type,
                                       cost_model = fx$cost_fit), a[-1]))
    expect_identical(r, r2)
  }
  # a sub-box
  set.seed(8)
  r <- acq_maximize(fx$fit, "ucb", lower = c(0.2, 0.2), upper = c(0.4, 0.5))
  expect_true(all(r$x >= c(0.2, 0.2) & r$x <= c(0.4, 0.5)))
})

test_that("finite domains are maximized exactly, with known costs per candidate", {
  S <- diag(c(1, 1, 4, 0.25))
  g <- gp_finite(c(0, 0.2, 0, 0.5), S, x = 1, y = 0.1, noise = 0)
  cost <- c(1, 1, 10, 0.5)
  for (type in c("ei", "ei_pu", "pbgi")) {
    extra <- if (type == "pbgi") list(lambda = 0.1) else list()
    r <- do.call(acq_maximize, c(list(g, type, cost = cost), extra))
    v <- do.call(acq_evaluate, c(list(g, 1:4, type, cost = cost), extra))
    expect_identical(r$x, which.max(v))
    expect_identical(r$value, max(v))
  }
  # candidate subsets of a continuous model
  fx <- acq_fixture(seed = 9)
  cand <- matrix(c(0.1, 0.2, 0.5, 0.5, 0.9, 0.1), ncol = 2, byrow = TRUE)
  r <- acq_maximize(fx$fit, "ei", candidates = cand)
  v <- acq_evaluate(fx$fit, cand, "ei")
  expect_equal(r$x, cand[which.max(v), ])
})

test_that("Q1 is zero once the budget is spent, never an error", {
  fx <- acq_fixture()
  x <- matrix(c(0.3, 0.3), 1)
  expect_identical(acq_evaluate(fx$fit, x, "q1", cost_model = fx$cost_fit,
                                remaining = 0), 0)
  expect_identical(acq_evaluate(fx$fit, x, "q1", cost = 2, remaining = 1.5), 0)
  expect_gt(acq_evaluate(fx$fit, x, "q1", cost = 2, remaining = 2.5), 0)
})

test_that("bad input to acquisitions at points stops with a clear error", {
  fx <- acq_fixture()
  bad <- function(expr) expect_error(expr, class = "costbo_error_arg")
  bad(acq_evaluate("fit", c(0.5, 0.5)))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "eii"))
  bad(acq_evaluate(fx$fit, c(1.5, 0.5)))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5, 0.5)))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "ei_pu", cost = -1))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "ei_pu", cost = 0))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "ei_pu_cc", cost = 1, nu = 1.5))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "ei_pu_cc", cost = 1))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "pbgi", cost = 1, lambda = 0))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "pbgi", cost = 1))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "q1", cost = 1))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "ei_pu", cost = 1,
                   cost_model = fx$cost_fit))
  other <- gp_fit(fx$X * 2, fx$X[, 1], lower = c(0, 0), upper = c(2, 2))
  bad(acq_evaluate(fx$fit, c(0.5, 0.5), "ei_pu", cost_model = other))
  bad(acq_maximize(fx$fit, "ei", lower = c(-1, 0)))
  # bounds of another length than the model's inputs are refused, not
  # truncated (a vector of 7 searched the box of its first 2)
  for (lo in list(c(0.1, 0.2, 0.3), runif(7))) {
    e <- expect_error(acq_maximize(fx$fit, "ei", lower = lo),
                      class = "costbo_error_arg")
    expect_identical(e$arg, "lower")
    expect_match(conditionMessage(e), "the inputs of `model`", fixed = TRUE)
  }
  expect_error(acq_maximize(fx$fit, "ei", upper = c(0.9, 0.9, 0.9)),
               class = "costbo_error_arg")
  bad(acq_maximize(fx$fit, "ei", n_raw = 0))
  bad(acq_maximize(fx$fit, "ei", select = "random"))
  expect_error(acq_evaluate(fx$fit, c(0.5, 0.5), "ei_pu",
                            cost = function(x) -1),
               class = "costbo_error")
})

test_that("the papers' cost families are evaluated in C with exact gradients", {
  fx <- acq_fixture(seed = 10)
  lin <- cost_linear(c(0, 0), c(1, 1))
  cosf <- cost_cosine(c(0, 0), c(1, 1), a = 1.2, b = 2, c = 0.3, period = 0.7)
  set.seed(11)
  x <- matrix(runif(10, 0.05, 0.95), ncol = 2)
  for (cf in list(lin, cosf)) {
    cvals <- apply(x, 1, cf)
    for (a in list(list(type = "ei_pu_cc", nu = 0.7),
                   list(type = "pbgi", lambda = 0.02),
                   list(type = "log_ei_pu"))) {
      args <- c(list(fx$fit, type = a$type, cost = cf), a[-1])
      r <- do.call(acq_evaluate, c(args, list(x = x, grad = TRUE)))
      expect_equal(r$value, closed_on_moments(a, fx, x, cvals),
                   tolerance = 1e-12)
      for (i in seq_len(nrow(x))) {
        fd <- ref_grad(function(z) do.call(acq_evaluate, c(args, list(x = z))),
                       x[i, ], h = 1e-6)
        expect_lt(rel_err(r$grad[i, ], fd, floor = 1e-3), 1e-5)
      }
    }
  }
  # the maximizer runs on them in C and agrees with the R path
  set.seed(12)
  a <- acq_maximize(fx$fit, "ei_pu", cost = lin)
  set.seed(12)
  b <- acq_maximize(fx$fit, "ei_pu", cost = function(x) 1 + 20 * rowMeans(x))
  expect_equal(a$value, b$value, tolerance = 1e-6)
})

test_that("paper 001's radial cost and its ring variant are evaluated in C with exact gradients", {
  # a fit on paper 001's box [-1, 1]^2
  set.seed(21)
  X <- matrix(runif(24, -1, 1), ncol = 2)
  r <- sqrt(rowSums(X^2))
  fit <- gp_fit(X, -10 * r * sin(2 * pi * r), lower = c(-1, -1),
                upper = c(1, 1))
  rs <- 0.78195695323847225
  # the costs by their formulas, written here
  radial <- function(x) 10 - 5 * sqrt(sum(x^2))
  ring <- function(x) 10 - 5 * abs(sqrt(sum(x^2)) - rs)
  # points off the ring (where the ring cost has a kink), inside and out
  x <- rbind(c(0.1, -0.2), c(0.4, 0.3), c(-0.9, 0.8), c(0.95, -0.6),
             c(-0.3, -0.5))
  ei <- as.double(acq_evaluate(fit, x, "ei"))
  for (nm in c("radial", "ring")) {
    cf <- test_problem("lee2021", cost_family = nm)$cost
    formula <- if (nm == "ring") ring else radial
    expect_equal(apply(x, 1, cf), apply(x, 1, formula), tolerance = 1e-15,
                 label = nm)
    res <- acq_evaluate(fit, x, "ei_pu", cost = cf, grad = TRUE)
    expect_equal(as.double(res$value), ei / apply(x, 1, formula),
                 tolerance = 1e-12, label = nm)
    # the same cost as an R function, called back from C
    plain <- function(x) formula(x)
    expect_equal(as.double(acq_evaluate(fit, x, "ei_pu", cost = plain)),
                 as.double(res$value), tolerance = 1e-12, label = nm)
    for (i in seq_len(nrow(x))) {
      fd <- ref_grad(function(z) {
        as.double(acq_evaluate(fit, matrix(z, 1L), "ei_pu", cost = cf))
      }, x[i, ], h = 1e-6)
      expect_lt(rel_err(res$grad[i, ], fd, floor = 1e-3), 1e-5)
    }
  }
  # a radial cost saved before it had a radius is paper 001's, radius 0
  cf <- test_problem("lee2021")$cost
  expect_null(attr(cf, "costbo_cost")$par$radius)
  zero <- cf
  attr(zero, "costbo_cost")$par$radius <- 0
  expect_identical(acq_evaluate(fit, x, "ei_pu", cost = cf, grad = TRUE),
                   acq_evaluate(fit, x, "ei_pu", cost = zero, grad = TRUE))
})

# The typed boundary: every control object crosses to C through an entry
# point that reads it by name; a missing or mistyped element, or an object
# of another class, is an error of its unpacker, never a crash or a read
# out of bounds.
boundary_cases <- function() {
  set.seed(1)
  X <- matrix(runif(16), ncol = 2)
  fit <- gp_fit(X, sin(5 * X[, 1]) + X[, 2], lower = c(0, 0),
                upper = c(1, 1))
  cfit <- gp_fit(X, log(1 + X[, 1]), lower = c(0, 0), upper = c(1, 1))
  acq <- costbo:::acq_pack(costbo:::acq_spec(fit, "ei_pu", cfit, NULL, NULL,
                                             NULL, NULL, NULL, NULL,
                                             call = NULL))
  q1 <- costbo:::acq_pack(costbo:::acq_spec(fit, "q1", cfit, NULL, NULL, 5,
                                            NULL, NULL, NULL, call = NULL))
  ei <- costbo:::acq_pack(costbo:::acq_spec(fit, "ei", NULL, 1, NULL, NULL,
                                            NULL, NULL, NULL, call = NULL))
  cosine <- costbo:::acq_pack(costbo:::acq_spec(
    fit, "ei_pu", NULL, cost_cosine(c(0, 0), c(1, 1), seed = 2), NULL, NULL,
    NULL, NULL, NULL, call = NULL))
  raw <- sobol_points(20, 2)
  unif <- runif(20)
  rc <- costbo:::check_rollout_control(list(n_raw = 20))
  kg <- costbo:::kg_control(5L, 5L, 0.9, 2L, FALSE)
  list(
    max = list(obj = costbo:::max_control(4L), run = function(o) {
      .Call(costbo:::C_acq_maximize, acq, c(0, 0), c(1, 1), 20L, o)
    }),
    acq = list(obj = acq, run = function(o) {
      .Call(costbo:::C_acq_evaluate, o, raw, FALSE)
    }),
    tree = list(obj = costbo:::bmsei_tree_control(
      list(n_raw = 10L, n_starts = 2L, maxit = 5L, n_greedy = 1L)),
      run = function(o) {
        .Call(costbo:::C_tree_maximize, q1, 1L, 0.5, 0.5, 5, c(0, 0),
              c(1, 1), o, double())
      }),
    cmdp = list(obj = costbo:::cmdp_control(2L, 0L, Inf, rc, FALSE),
                run = function(o) {
                  .Call(costbo:::C_rollout_cmdp_propose, ei, raw[1:3, ],
                        matrix(0.3, 2, 2), raw, unif, o)
                }),
    kg = list(obj = kg, run = function(o) {
      .Call(costbo:::C_rollout_rh_value, ei, raw[1:2, ], raw, o, 2L)
    }),
    rh = list(obj = costbo:::rh_control(0L, rc, 5, Inf), run = function(o) {
      .Call(costbo:::C_rollout_rh_propose, ei, raw[1:3, ], raw, kg, o)
    }),
    # gp_fit()'s multistart on standardized data, from one start
    fit = list(obj = costbo:::gp_fit_control(1L, maxit = 5L),
               run = function(o) {
                 .Call(costbo:::C_gp_fit, X, as.double(scale(fit$y)), 0L,
                       matrix(c(log(0.3), log(0.3), 0, log(1e-3), 0), 5),
                       c(rep(log(1e-3), 2), log(1e-4), log(1e-6), -Inf),
                       c(rep(log(1e3), 2), log(1e8), log(10), Inf),
                       c(0L, 1L, 2L, 3L, -1L), FALSE, c(3, 2, 1.1),
                       c(6, 0.15, 0.05), 0L, o)
               }),
    gp = list(obj = costbo:::gp_pack(fit), run = function(o) {
      .Call(costbo:::C_gp_predict, o, raw, FALSE)
    }),
    # the named parameters of a known cost (here a cosine cost)
    cost = list(obj = cosine$cost_par, run = function(o) {
      cosine$cost_par <- o
      .Call(costbo:::C_acq_evaluate, cosine, raw, FALSE)
    }))
}

test_that("each unpacker rejects a missing or mistyped element", {
  cases <- boundary_cases()
  expect_setequal(vapply(cases, function(k) class(k$obj), ""),
                  paste0("costbo_", c("max_control", "acq", "tree_control",
                                      "cmdp_control", "kg_control",
                                      "rh_control", "fit_control",
                                      "gp_pack", "cost_par")))
  for (nm in names(cases)) {
    obj <- cases[[nm]]$obj
    run <- cases[[nm]]$run
    cls <- class(obj)
    expect_error(run(obj), NA)
    expect_error(run(unclass(obj)), sprintf("expected a %s object", cls),
                 fixed = TRUE)
    for (el in names(obj)) {
      gone <- obj
      gone[el] <- NULL
      expect_error(run(gone), sprintf("the %s object has no element `%s`",
                                      cls, el), fixed = TRUE)
      bad <- obj
      bad[[el]] <- "1"
      expect_error(run(bad), sprintf("element `%s` of the %s object", el, cls),
                   fixed = TRUE)
      if (is.integer(obj[[el]])) {
        # a whole number stored as a double is not an integer element
        bad[[el]] <- as.double(obj[[el]])
        expect_error(run(bad), sprintf("element `%s` of the %s object must be one integer",
                                       el, cls), fixed = TRUE)
      }
    }
  }
})

test_that("the control constructors check their settings", {
  err <- function(expr) expect_error(expr, class = "costbo_error_arg")
  # the maximizer's control trusts its (checked) settings; C refuses an
  # inconsistent one with an error, never a crash
  mc <- costbo:::max_control
  expect_identical(unclass(mc(3)),
                   list(n_starts = 3L, select = 0L, eta = 1, maxit = 200L,
                        factr = 1e7, pgtol = 0, lmm = 5L))
  expect_identical(mc(3, "best")$select, 1L)
  set.seed(1)
  X <- matrix(runif(20), ncol = 2)
  fit <- gp_fit(X, sin(5 * X[, 1]) + X[, 2], lower = 0, upper = 1)
  spec <- costbo:::acq_spec(fit, "ei", NULL, NULL, max(fit$y), NULL, NULL,
                            NULL, NULL, call = NULL)
  run <- function(ctl) {
    costbo:::acq_maximize_box(spec, c(0, 0), c(1, 1), 20L, ctl)
  }
  expect_true(is.finite(run(mc(2))$value))
  for (bad in list(mc(-1), mc(2, "worst"), mc(2, eta = 0), mc(2, maxit = -1),
                   mc(2, factr = -1), mc(2, pgtol = NA), mc(2, lmm = 0))) {
    expect_error(run(bad), "costbo_max_control", class = "costbo_error_c")
  }
  # the settings a user gives are checked where they enter
  err(acq_maximize(fit, "ei", best = max(fit$y), n_starts = -1))
  err(acq_maximize(fit, "ei", best = max(fit$y), n_starts = 1.5))
  err(acq_maximize(fit, "ei", best = max(fit$y), select = "worst"))
  tc <- costbo:::bmsei_tree_control
  ok <- list(n_raw = 10L, n_starts = 2L, maxit = 5L, n_greedy = 1L)
  expect_identical(unclass(tc(ok)$max)[c("factr", "lmm")],
                   list(factr = 1e4, lmm = 10L))
  err(tc(utils::modifyList(ok, list(n_raw = 0L))))
  err(tc(utils::modifyList(ok, list(n_greedy = -1L))))
  err(policy_bmsei(maxit = 2.5))
  rc <- costbo:::check_rollout_control(list())
  cc <- costbo:::cmdp_control
  expect_s3_class(cc(3L, 1L, 2.5, rc, TRUE)$inner, "costbo_max_control")
  expect_identical(cc(3L, 1L, 2.5, rc, TRUE)$latent, 1L)
  err(cc(0L, 0L, 1, rc, FALSE))
  err(cc(2L, 2L, 1, rc, FALSE))
  err(cc(2L, 0L, NA, rc, FALSE))
  err(cc(2L, 0L, 1, rc, NA))
  err(policy_cmdp_rollout(2, control = list(inner_starts = -1)))
  err(policy_kg_rollout(2, control = list(n_deep = 0)))
  kc <- costbo:::kg_control
  expect_identical(kc(10L, 10L, 0.9, 2L, FALSE)$latent, 0L)
  err(kc(0L, 10L, 0.9, 2L, FALSE))
  err(kc(10L, 10L, 0, 2L, FALSE))
  err(kc(10L, 10L, 1.5, 2L, FALSE))
  err(kc(10L, 10L, 0.9, 11L, FALSE))
  err(kc(10L, 10L, 0.9, 2L, 1))
  hc <- costbo:::rh_control
  expect_identical(hc(0L, rc, 7, Inf)$n_left, 7L)
  err(hc(11L, rc, 5, 1))
  err(hc(1L, rc, -1, 1))
  err(hc(1L, rc, 5, NA))
  err(hc(1L, utils::modifyList(rc, list(error_const = -1)), 5, 1))
  err(hc(1L, utils::modifyList(rc, list(n_top = 0)), 5, 1))
})

test_that("a known cost saved with its parameters in one vector gives the same acquisition", {
  set.seed(5)
  X <- matrix(runif(14), ncol = 2)
  fit <- gp_fit(X, sin(4 * X[, 1]) + X[, 2], lower = c(-1, 0),
                upper = c(1, 2))
  x <- rbind(c(0.2, 0.5), c(-0.7, 1.9))
  for (cost in list(cost_linear(c(-1, 0), c(1, 2), a = 2, b = 5),
                    cost_cosine(c(-1, 0), c(1, 2), seed = 7))) {
    old <- cost
    p <- attr(old, "costbo_cost")$par
    # the layout of earlier versions: (a, b[, c, period], offset)
    attr(old, "costbo_cost")$par <- unlist(p, use.names = FALSE)
    expect_identical(acq_evaluate(fit, x, "ei_pu", cost = old, grad = TRUE),
                     acq_evaluate(fit, x, "ei_pu", cost = cost, grad = TRUE))
    # and both equal EI divided by the cost, computed in R
    ei <- acq_evaluate(fit, x, "ei")
    expect_equal(as.double(acq_evaluate(fit, x, "ei_pu", cost = cost)),
                 as.double(ei) / apply(x, 1, cost), tolerance = 1e-12)
  }
})
