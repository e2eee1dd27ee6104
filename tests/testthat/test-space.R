# Typed search spaces: the encoding, the kernel's input transform, problems
# over a space and every policy's proposals on one.

mixed_space <- function() {
  bo_space(n = param_int(1, 6), lr = param_num(1e-3, 1, log = TRUE),
           rule = param_cat(c("a", "b", "c")), x = param_num(-1, 1))
}

# deterministic objective of a mixed_space() point, maximum 1 at
# (n = 4, lr = 0.1, rule = "b", x = 0.25)
mixed_objective <- function(p) {
  1 - 0.1 * (p$n - 4)^2 - (log10(p$lr) + 1)^2 - 0.5 * (p$rule != "b") -
    (p$x - 0.25)^2
}

test_that("parameters and spaces check their arguments", {
  expect_error(param_int(1.5, 3), "`lower`", class = "costbo_error_arg")
  expect_error(param_int(1, 3.5), "`upper`", class = "costbo_error_arg")
  expect_error(param_num(2, 1), "`upper`", class = "costbo_error_arg")
  expect_error(param_num(0, 1, log = TRUE), "`lower`",
               class = "costbo_error_arg")
  expect_error(param_int(0, 5, log = TRUE), "`lower`",
               class = "costbo_error_arg")
  expect_error(param_cat("a"), "`levels`", class = "costbo_error_arg")
  expect_error(param_cat(c("a", "a")), "`levels`", class = "costbo_error_arg")
  expect_error(bo_space(param_int(1, 2)), "names", class = "costbo_error_arg")
  expect_error(bo_space(a = 1), "`a`", class = "costbo_error_arg")
  sp <- mixed_space()
  expect_identical(sp$d, 6L)
  expect_identical(sp$columns, c("n", "lr", "rule.a", "rule.b", "rule.c", "x"))
  expect_output(print(sp), "rule: categorical \\{a, b, c\\}")
})

test_that("encoding and decoding are inverse and follow the cells", {
  sp <- mixed_space()
  pts <- data.frame(n = c(1, 6, 3), lr = c(1e-3, 1, 0.01),
                    rule = c("c", "a", "b"), x = c(-1, 1, 0.3))
  U <- space_encode(sp, pts)
  # integer cells of equal width: value j has centre (j - 1 + 0.5) / 6
  expect_identical(U[, 1], (c(1, 6, 3) - 1 + 0.5) / 6)
  expect_equal(U[, 2], c(0, 1, 1 / 3), tolerance = 1e-15)
  expect_identical(unname(U[, 3:5]), rbind(c(0, 0, 1), c(1, 0, 0), c(0, 1, 0)))
  expect_identical(U[, 6], c(0, 1, 0.65))
  back <- space_decode(sp, U)
  expect_identical(back$n, c(1L, 6L, 3L))
  expect_equal(back$lr, pts$lr, tolerance = 1e-14)
  expect_identical(as.character(back$rule), pts$rule)
  expect_identical(levels(back$rule), c("a", "b", "c"))
  expect_equal(back$x, pts$x, tolerance = 1e-15)
  # any point of the cube: the integer of its cell, the largest level
  set.seed(1)
  R <- matrix(runif(600), 100, 6)
  dec <- space_decode(sp, R)
  expect_identical(dec$n, as.integer(pmin(floor(R[, 1] * 6), 5) + 1))
  expect_equal(dec$lr, 10^(-3 + 3 * R[, 2]), tolerance = 1e-13)
  expect_identical(as.character(dec$rule),
                   c("a", "b", "c")[apply(R[, 3:5], 1, which.max)])
  # a log-scale integer: the nearest integer of exp(log(a) + u log(b / a))
  sl <- bo_space(k = param_int(1, 100, log = TRUE))
  u <- seq(0, 1, length.out = 1001)
  expect_identical(space_decode(sl, u)$k,
                   as.integer(pmin(pmax(floor(100^u + 0.5), 1), 100)))
  # the encoding of the decoded points is the transform, a fixed point
  T1 <- space_encode(sp, dec)
  expect_identical(space_encode(sp, space_decode(sp, T1)), T1)
  # the typed point of one row (what the objective and a cost receive) is
  # that row of the decoded rows, to the last bit (ties of a category go
  # to its first level, as in the cells' corners of the cube)
  R[1:4, 3:5] <- rbind(c(0.5, 0.5, 0.2), c(0.1, 0.7, 0.7), 1, 0)
  R[5, ] <- 0
  R[6, ] <- 1
  all_rows <- costbo:::space_values(sp, R)
  for (i in seq_len(nrow(R))) {
    expect_identical(costbo:::space_point(sp, R[i, ]),
                     lapply(all_rows, `[`, i))
  }
  expect_identical(all_rows$rule[1:4], c("a", "b", "a", "a"))
  dec <- space_decode(sp, R)
  expect_identical(all_rows$rule, as.character(dec$rule))
  expect_identical(all_rows[c("n", "lr", "x")], as.list(dec[c("n", "lr", "x")]))
  expect_error(space_encode(sp, data.frame(n = 0, lr = 0.1, rule = "a",
                                           x = 0)), "`x\\$n`",
               class = "costbo_error_arg")
  expect_error(space_encode(sp, data.frame(n = 2.5, lr = 0.1, rule = "a",
                                           x = 0)), "whole numbers",
               class = "costbo_error_arg")
  expect_error(space_encode(sp, data.frame(n = 2, lr = 0.1, rule = "d",
                                           x = 0)), "`x\\$rule`",
               class = "costbo_error_arg")
  expect_error(space_encode(sp, data.frame(n = 2, lr = 0.1)), "missing: rule, x",
               class = "costbo_error_arg")
})

test_that("a GP on a typed space is constant on each integer's cell", {
  sp <- bo_space(n = param_int(1, 5), x = param_num(0, 1))
  set.seed(2)
  pts <- data.frame(n = c(1, 2, 3, 4, 5, 2, 4), x = runif(7))
  y <- sin(pts$n) + pts$x
  fit <- gp_fit(pts, y, space = sp)
  # every u in the cell of n = 3, [0.4, 0.6), predicts as its centre
  u <- c(0.4, 0.45, 0.5, 0.55, 0.5999999)
  p <- predict(fit, cbind(u, 0.3), grad = TRUE)
  expect_identical(p$mean, rep(p$mean[3], 5))
  expect_identical(p$sd, rep(p$sd[3], 5))
  # the gradient in the integer column is 0, in the numeric one it is not
  expect_identical(p$mean_grad[, 1], rep(0, 5))
  expect_true(all(abs(p$mean_grad[, 2]) > 0))
  # finite differences in x at the typed point
  h <- 1e-6
  pp <- predict(fit, rbind(c(0.5, 0.3 + h), c(0.5, 0.3 - h)))
  expect_equal(p$mean_grad[3, 2], diff(rev(pp$mean)) / (2 * h),
               tolerance = 1e-6)
  # neighbouring cells differ
  q <- predict(fit, cbind(c(0.39, 0.61), 0.3))
  expect_true(all(q$mean != p$mean[3]))
  # typed newdata and encoded newdata agree
  expect_identical(predict(fit, data.frame(n = 3, x = 0.3))$mean, p$mean[3])
})

test_that("predictions at a category match a direct computation of the kernel", {
  sp <- bo_space(rule = param_cat(c("a", "b", "c")), x = param_num(0, 2))
  set.seed(3)
  pts <- data.frame(rule = c("a", "b", "c", "a", "b", "c", "a"),
                    x = runif(7, 0, 2))
  y <- c(a = 0, b = 1, c = -1)[pts$rule] + sin(pts$x)
  fit <- gp_fit(pts, unname(y), space = sp)
  # Matern 5/2 on the one-hot columns and x / 2, ARD lengthscales
  ell <- fit$hyp[1:4]
  sf2 <- fit$hyp[5]
  noise <- fit$hyp[6] + fit$hyp[8]
  mu <- fit$hyp[7]
  enc <- function(rule, x) cbind(outer(rule, c("a", "b", "c"), "==") + 0, x / 2)
  k52 <- function(A, B) {
    r <- sqrt(outer(seq_len(nrow(A)), seq_len(nrow(B)), Vectorize(function(i, j) {
      sum(((A[i, ] - B[j, ]) / ell)^2)
    })))
    sf2 * (1 + sqrt(5) * r + 5 * r^2 / 3) * exp(-sqrt(5) * r)
  }
  X <- enc(pts$rule, pts$x)
  K <- k52(X, X) + diag(noise, 7)
  ys <- (unname(y) - fit$ymean) / fit$ysd
  # a point whose level columns are relaxed (0.2, 0.7, 0.1) is level "b"
  new <- rbind(c(0.2, 0.7, 0.1, 0.6), c(0.9, 0.05, 0.05, 0.1))
  Xn <- enc(c("b", "a"), c(1.2, 0.2))
  ks <- k52(Xn, X)
  m <- mu + ks %*% solve(K, ys - mu)
  v <- sf2 - rowSums(ks * t(solve(K, t(ks))))
  p <- predict(fit, new)
  expect_equal(p$mean, fit$ymean + fit$ysd * drop(m), tolerance = 1e-10)
  expect_equal(p$sd, fit$ysd * sqrt(v), tolerance = 1e-8)
})

test_that("a typed problem hands typed points to the objective and the cost", {
  sp <- mixed_space()
  seen <- list()
  obj <- function(p) {
    seen[[length(seen) + 1L]] <<- p
    mixed_objective(p)
  }
  prob <- bo_problem(obj, space = sp, cost = function(p) 1 + p$n / 6,
                     budget = 12, name = "mixed", optimum = 1)
  expect_s3_class(prob, "bo_problem_typed")
  expect_output(print(prob), "typed space of 4 parameters")
  run <- bo_optimize(prob, policy_ei_pu(), seed = 1, progress = FALSE)
  p1 <- seen[[1L]]
  expect_identical(names(p1), c("n", "lr", "rule", "x"))
  expect_type(p1$n, "integer")
  expect_type(p1$lr, "double")
  expect_type(p1$rule, "character")
  df <- as.data.frame(run)
  expect_identical(names(df)[1:4], c("n", "lr", "rule", "x"))
  expect_s3_class(df$rule, "factor")
  expect_identical(df$cost, 1 + df$n / 6)
  # the records are the encodings of the typed points (bit for bit in the
  # discrete columns, whose encodings are cell centres and one-hot vectors)
  enc <- space_encode(sp, df[1:4])
  expect_identical(unname(run$X[, c(1, 3:5)]), unname(enc[, c(1, 3:5)]))
  expect_equal(unname(run$X), unname(enc), tolerance = 1e-14)
  expect_identical(anyDuplicated(df[1:4]), 0L)
  s <- summary(run)
  expect_identical(names(s$best_x), c("n", "lr", "rule", "x"))
  expect_output(print(s), "best point:  \\(n = ")
  expect_error(bo_problem(obj, space = sp, lower = 0, budget = 1), "`lower`",
               class = "costbo_error_arg")
  expect_error(bo_problem(obj, space = sp, budget = 1,
                          cost = cost_linear(0, 1)), "`cost`",
               class = "costbo_error_arg")
  expect_error(bo_problem(obj, space = list(), budget = 1), "`space`",
               class = "costbo_error_arg")
})

test_that("every policy proposes valid typed points on a mixed space", {
  # every policy, with a budget of a few steps (at least 3 each) and the
  # smallest B-MS-EI optimizer that still has raw points, starts and a
  # greedy tree. About 10 s: nearly all of it is the cost-aware policies
  # calling the R cost function on the typed point of every candidate.
  sp <- mixed_space()
  prob <- bo_problem(mixed_objective, space = sp,
                     cost = function(p) 0.5 + p$n / 6 + (p$rule == "c"),
                     budget = 5, optimum = 1)
  policies <- list(policy_random(), policy_ei(), policy_ei_pu(),
                   policy_ei_pu_cc(), policy_q1(), policy_ucb(),
                   policy_pbgi(), policy_pbgi_d(),
                   policy_bmsei(steps = 2, path = TRUE, n_raw = 64,
                                n_starts = 2, maxit = 50, n_greedy = 1),
                   policy_bmsei(steps = 2, fantasies = 2, n_raw = 64,
                                n_starts = 2, maxit = 50, n_greedy = 1),
                   policy_cmdp_rollout(horizon = 2, n_samples = 4),
                   policy_kg_rollout(), policy_kg())
  for (pol in policies) {
    # (a free design, so that the budget goes to the policy's steps)
    run <- bo_optimize(prob, pol, seed = 3, progress = FALSE,
                       charge_initial = FALSE)
    X <- run$X
    expect_gte(sum(run$phase == "bo"), 3L,
               label = paste("the BO steps of", pol$label))
    # each row is a fixed point of the transform: a valid typed point
    expect_identical(costbo:::space_transform(sp, X), X, info = pol$label)
    df <- as.data.frame(run)
    expect_true(all(df$n %in% 1:6 & df$lr >= 1e-3 & df$lr <= 1 &
                      df$x >= -1 & df$x <= 1), info = pol$label)
    expect_identical(anyDuplicated(df[1:4]), 0L, info = pol$label)
  }
})

test_that("policies for control sets are refused before anything is paid", {
  calls <- 0
  prob <- bo_problem(function(p) {
    calls <<- calls + 1
    mixed_objective(p)
  }, space = mixed_space(), cost = 1, budget = 5)
  for (pol in list(policy_ucb_psq(), policy_ts_psq(), policy_etc(),
                   policy_ucb_cvs())) {
    expect_error(bo_optimize(prob, pol, seed = 1, progress = FALSE),
                 "`policy` must be a policy for problems without control sets",
                 class = "costbo_error_arg")
  }
  expect_identical(calls, 0)
})

test_that("a deterministic objective is not evaluated twice at a typed point", {
  # 3 x 2 = 6 typed points; the budget buys more evaluations than that
  sp <- bo_space(n = param_int(1, 3), rule = param_cat(c("a", "b")))
  prob <- bo_problem(function(p) p$n + (p$rule == "b"), space = sp, cost = 1,
                     budget = 20)
  run <- bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE)
  df <- as.data.frame(run)
  expect_identical(anyDuplicated(df[1:2]), 0L)
  expect_identical(nrow(df), 6L)
  expect_identical(run$stop_code, "exhausted")
  # a noisy objective may be evaluated again
  noisy <- bo_problem(function(p) p$n + (p$rule == "b") + rnorm(1, sd = 0.1),
                      space = sp, cost = 1, budget = 10, noise = TRUE)
  run2 <- bo_optimize(noisy, policy_ei(), seed = 1, progress = FALSE,
                      charge_initial = FALSE)
  # (the initial design: 2 (k + 1) = 6 points for k = 2 settings, the 6
  # distinct typed points)
  expect_identical(nrow(as.data.frame(run2)), 6L + 10L)
  # charged, the design's 6 unit costs are part of the budget of 10
  run3 <- bo_optimize(noisy, policy_ei(), seed = 1, progress = FALSE)
  expect_identical(nrow(as.data.frame(run3)), 10L)
  expect_equal(run3$spent, 10)
})

test_that("sessions take typed points and resume keeps them bit for bit", {
  sp <- mixed_space()
  prob <- bo_problem(function(p) list(value = mixed_objective(p),
                                      cost = 1 + p$n / 3),
                     space = sp, budget = 8)
  ini <- data.frame(
    n = c(1, 3, 5, 6, 2, 4), lr = c(0.001, 0.01, 0.1, 1, 0.5, 0.05),
    rule = c("a", "b", "c", "a", "b", "c"), x = c(-1, -0.5, 0, 0.5, 1, 0.2),
    cost = c(1, 2, 1, 3, 2, 1))
  ini$value <- vapply(seq_len(nrow(ini)), function(i) {
    mixed_objective(as.list(ini[i, 1:4]))
  }, 0)
  # (the measured initial points are not charged: the budget is for the
  # steps that follow)
  s <- bo_session(prob, policy_ei_pu_cc(), initial = ini,
                  charge_initial = FALSE)
  expect_identical(as.data.frame(s)$n, as.integer(ini$n))
  set.seed(4)
  pt <- bo_ask(s)
  expect_s3_class(pt, "bo_point_typed")
  expect_identical(names(unclass(pt)), c("n", "lr", "rule", "x"))
  expect_output(print(pt), "Next point to evaluate: n = ")
  s <- bo_tell(s, pt, mixed_objective(unclass(pt)), cost = 2)
  expect_identical(as.data.frame(s)$n[7], pt$n)
  # a typed point given as a list
  s <- bo_tell(s, list(n = 2L, lr = 0.3, rule = "c", x = 0), -1, cost = 1)
  expect_identical(as.character(as.data.frame(s)$rule[8]), "c")
  expect_error(bo_tell(s, list(n = 9L, lr = 0.3, rule = "c", x = 0), -1,
                       cost = 1), "`x\\$n`", class = "costbo_error_arg")
  # a run resumed from its checkpoint equals the uninterrupted one
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  prob2 <- bo_problem(mixed_objective, space = sp, cost = function(p) 1 + p$n / 6,
                      budget = 8)
  full <- bo_optimize(prob2, policy_ei_pu(), seed = 5, progress = FALSE)
  part <- bo_optimize(prob2, policy_ei_pu(), seed = 5, max_evaluations = 2,
                      checkpoint = f, progress = FALSE)
  set.seed(99)
  resumed <- bo_resume(f, max_evaluations = 1000, progress = FALSE)
  expect_identical(as.data.frame(resumed)[1:6], as.data.frame(full)[1:6])
  expect_identical(resumed$X, full$X)
  expect_identical(lapply(as.data.frame(resumed)[1:4], class),
                   list(n = "integer", lr = "numeric", rule = "factor",
                        x = "numeric"))
})

test_that("acquisitions on a typed space are flat in the discrete columns", {
  sp <- bo_space(n = param_int(1, 5), x = param_num(0, 1))
  set.seed(6)
  pts <- data.frame(n = c(1, 2, 3, 4, 5, 3), x = runif(6))
  fit <- gp_fit(pts, sin(pts$n) + pts$x, space = sp)
  # a cost of the typed point (through the encoding: n's cell, and x)
  cost <- function(X) 1 + floor(X[, 1] * 5) + X[, 2]
  u <- rbind(c(0.5, 0.3), c(0.5999, 0.3), c(0.41, 0.3))
  a <- acq_evaluate(fit, u, type = "ei_pu", cost = cost, grad = TRUE)
  # one typed point: one value, and a gradient 0 in n although the cost
  # jumps at the cell boundaries next to these points
  expect_identical(a$value, rep(a$value[1], 3))
  expect_identical(a$grad[, 1], rep(0, 3))
  h <- 1e-6
  ap <- acq_evaluate(fit, rbind(c(0.5, 0.3 + h), c(0.5, 0.3 - h)),
                     type = "ei_pu", cost = cost)
  expect_equal(a$grad[1, 2], (ap[1] - ap[2]) / (2 * h), tolerance = 1e-5)
})
