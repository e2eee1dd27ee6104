# A fit altered after fitting (restored from an edited file, built by hand,
# a field overwritten) never reaches C: every exported function that takes a
# fit gives a costbo_error naming the argument and the field (issue 16).
# helper-stale.R alters each field of each kind of fit (NULL, shortened,
# lengthened, character, NaN, out of range, ...); bench/stale-objects.R
# counts the crashes of the same cases in child processes.

test_that("the issue's examples give errors naming the object and the field", {
  g <- gp_finite(c(0, 0, 0), diag(3), x = 1, y = 0.5)
  g$Xs[1, 1] <- -1e9
  e <- expect_error(predict(g, 1:3), class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`object$Xs`", fixed = TRUE)
  set.seed(1)
  X <- matrix(runif(12), ncol = 2)
  fit <- gp_fit(X, X[, 1] + sin(4 * X[, 2]), lower = 0, upper = 1)
  big <- fit
  big$Xs <- rbind(fit$Xs, fit$Xs)
  e <- expect_error(predict(big, c(0.5, 0.5)), class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`object$Xs`", fixed = TRUE)
  no_d <- fit
  no_d$d <- NULL
  e <- expect_error(predict(no_d, c(0.5, 0.5), grad = TRUE),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`object$d`", fixed = TRUE)
  e <- expect_error(acq_evaluate(fit, c(0.5, 0.5), "ei_pu", cost_model = no_d),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`cost_model$d`", fixed = TRUE)
  e <- expect_error(acq_evaluate(big, c(0.5, 0.5), "ei"),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`model$Xs`", fixed = TRUE)
  # the unaltered fits still work, and give the same numbers as before
  expect_equal(predict(fit, c(0.5, 0.5))$mean,
               predict(unserialize(serialize(fit, NULL)), c(0.5, 0.5))$mean)
})

test_that("a known cost whose parameters were altered is rejected", {
  set.seed(2)
  X <- matrix(runif(12), ncol = 2)
  fit <- gp_fit(X, X[, 1] + sin(4 * X[, 2]), lower = 0, upper = 1)
  cl <- cost_linear(c(0, 0), c(1, 1))
  ok <- acq_evaluate(fit, c(0.5, 0.5), "ei_pu", cost = cl)
  expect_true(is.finite(ok))
  attr(cl, "costbo_cost")$par <- 1
  expect_error(acq_evaluate(fit, c(0.5, 0.5), "ei_pu", cost = cl),
               class = "costbo_error_arg")
  cc <- cost_cosine(c(0, 0), c(1, 1), seed = 1)
  attr(cc, "costbo_cost")$par <- attr(cc, "costbo_cost")$par[1:3]
  expect_error(acq_maximize(fit, "ei_pu", cost = cc, n_raw = 8, n_starts = 1),
               class = "costbo_error_arg")
})

test_that("every altered field of every kind of fit gives a costbo_error", {
  cases <- stale_cases()
  out <- vapply(cases, stale_outcome, "")
  labels <- vapply(cases, `[[`, "", "label")
  structural <- vapply(cases, `[[`, TRUE, "structural")
  # a broken structure (sizes, types, indices, NaN, signs): a costbo_error
  bad <- structural & out != "costbo_error"
  expect_identical(paste(labels[bad], out[bad], sep = " -> "), character())
  # another valid number in a field: a result, a costbo_error, or C's
  # report that the altered factor no longer fits the data
  ok <- out %in% c("costbo_error", "no_error") |
    grepl("not positive", out, fixed = TRUE)
  expect_identical(paste(labels[!ok], out[!ok], sep = " -> "), character())
  expect_gt(sum(structural), 2000L)
  expect_gt(length(cases), 3000L)
})
