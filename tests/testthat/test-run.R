# What a run reports: print(), summary() and as.data.frame(), in the
# direction of the user's objective.

loss <- function(x) 1 + sum((x - c(0.3, 0.6))^2) + 0.1 * sin(5 * x[1])

test_that("a minimized run reports the objective's own values", {
  prob <- bo_problem(loss, c(0, 0), c(1, 1), cost = function(x) 1 + x[1],
                     budget = 10, optimum = 0.9, maximize = FALSE,
                     name = "loss")
  run <- bo_optimize(prob, policy_ei_pu(), n_init = 4, seed = 2,
                     progress = FALSE)
  # the values the user's function gives at the evaluated points
  y <- apply(run$X, 1L, loss)
  expect_gte(length(y), 6L)
  df <- as.data.frame(run)
  expect_equal(df$value, y, tolerance = 0)
  expect_equal(df$best_value, cummin(y), tolerance = 0)
  s <- summary(run)
  i <- which.min(y)
  expect_identical(s$best_value, y[i])
  expect_identical(unname(s$best_x), run$X[i, ])
  expect_identical(s$optimum, 0.9)
  expect_equal(s$regret, y[i] - 0.9, tolerance = 1e-15)
  expect_gt(s$regret, 0)
  expect_false(s$maximize)
  fmt <- function(v, digits) format(v, digits = digits)
  expect_output(print(run), "EI per unit cost on \"loss\" \\(minimize\\)")
  expect_output(print(run), paste0("best value ", fmt(y[i], 6), " at x"),
                fixed = TRUE)
  out <- capture.output(print(s))
  expect_identical(out[1], "EI per unit cost on \"loss\" (minimize)")
  expect_identical(out[2], paste0("  best value:  ", fmt(y[i], 4)))
  expect_identical(out[4], sprintf("  regret:      %s (known optimum 0.9)",
                                   fmt(y[i] - 0.9, 4)))
  # a maximized run says nothing new, and its best is the largest
  up <- bo_optimize(bo_problem(function(x) -loss(x), c(0, 0), c(1, 1),
                               cost = function(x) 1 + x[1], budget = 10,
                               name = "loss"),
                    policy_ei_pu(), n_init = 4, seed = 2, progress = FALSE)
  expect_identical(capture.output(print(summary(up)))[1],
                   "EI per unit cost on \"loss\"")
  expect_identical(as.data.frame(up)$best_value, cummax(-y))
})

test_that("the best value so far counts successful evaluations of the objective", {
  prob <- bo_problem(function(x) if (x[1] > 0.7) stop("broken") else loss(x),
                     c(0, 0), c(1, 1), cost = 1, budget = 9,
                     maximize = FALSE)
  expect_warning(run <- bo_optimize(prob, policy_ei(), n_init = 4, seed = 3,
                                    progress = FALSE),
                 class = "costbo_warning_failed")
  df <- as.data.frame(run)
  expect_true(any(df$status == "error"))
  y <- ifelse(df$status == "ok", apply(run$X, 1L, loss), Inf)
  ref <- cummin(y)
  ref[!is.finite(ref)] <- NA
  expect_identical(df$best_value, ref)
  # information sources: source 0 only
  miso <- bo_problem(function(x, source) loss(x) - source, c(0, 0), c(1, 1),
                     budget = 12, sources = 2, source_costs = c(2, 1),
                     maximize = FALSE)
  run <- bo_optimize(miso, policy_kg(n_nodes = 3, n_cand = 10), n_init = 3,
                     seed = 1, progress = FALSE)
  df <- as.data.frame(run)
  obj <- df$source == 0L
  expect_true(any(!obj))
  ref <- cummin(ifelse(obj, df$value, Inf))
  expect_identical(df$best_value, ref)
  expect_identical(summary(run)$best_value, min(df$value[obj]))
})

test_that("runs saved before the direction existed report as before", {
  prob <- bo_problem(function(x) -loss(x), c(0, 0), c(1, 1), cost = 1,
                     budget = 6, optimum = -0.9)
  run <- bo_optimize(prob, policy_ei(), n_init = 4, seed = 1,
                     progress = FALSE)
  old <- run
  old$problem$maximize <- NULL
  old$problem <- unclass(old$problem)
  class(old$problem) <- "bo_problem"
  expect_identical(as.data.frame(old), as.data.frame(run))
  expect_identical(summary(old), summary(run))
  expect_identical(capture.output(print(old)), capture.output(print(run)))
  expect_identical(summary(old)$best_value, max(run$value))
})

test_that("a minimized run resumes from its checkpoint in its direction", {
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  prob <- bo_problem(loss, c(0, 0), c(1, 1), cost = 1, budget = 8,
                     maximize = FALSE)
  full <- bo_optimize(prob, policy_ei(), n_init = 4, seed = 6,
                      progress = FALSE)
  part <- bo_optimize(prob, policy_ei(), n_init = 4, seed = 6,
                      max_evaluations = 1, checkpoint = f, progress = FALSE)
  up <- bo_problem(function(x) -loss(x), c(0, 0), c(1, 1), cost = 1,
                   budget = 8)
  expect_error(bo_resume(f, problem = up, progress = FALSE), "direction",
               class = "costbo_error_arg")
  res <- bo_resume(f, problem = prob, max_evaluations = 100,
                   progress = FALSE)
  expect_identical(res$X, full$X)
  expect_identical(as.data.frame(res)$value, as.data.frame(full)$value)
  expect_identical(as.data.frame(res)$value, apply(full$X, 1L, loss))
})

test_that("a session takes and reports the objective's own values", {
  lo <- bo_problem(function(x) NA, c(0, 0), c(1, 1),
                   cost = function(x) 1 + x[1], budget = 10,
                   maximize = FALSE)
  hi <- bo_problem(function(x) NA, c(0, 0), c(1, 1),
                   cost = function(x) 1 + x[1], budget = 10)
  init <- data.frame(x1 = c(0.1, 0.5, 0.9), x2 = c(0.8, 0.2, 0.5))
  init$value <- apply(as.matrix(init), 1L, loss)
  neg <- init
  neg$value <- -init$value
  # the same steps, each session on its own stream
  steps <- function(session, sign) {
    set.seed(4)
    for (i in 1:3) {
      x <- bo_ask(session)
      session <- bo_tell(session, x, value = sign * loss(as.double(x)))
    }
    session
  }
  s <- steps(bo_session(lo, policy_ei_pu(), initial = init), 1)
  t <- steps(bo_session(hi, policy_ei_pu(), initial = neg), -1)
  expect_identical(s$X, t$X)
  expect_identical(s$value, t$value)
  df <- as.data.frame(s)
  expect_identical(df$value, apply(s$X, 1L, loss))
  expect_identical(df$best_value, cummin(df$value))
  expect_output(print(s), paste0("best value ",
                                 format(min(df$value), digits = 6), " at"),
                fixed = TRUE)
})

test_that("progress reports give a minimized objective's own values", {
  prob <- bo_problem(loss, c(0, 0), c(1, 1), cost = 1, budget = 6,
                     maximize = FALSE, name = "loss")
  msgs <- list()
  run <- withCallingHandlers(
    bo_optimize(prob, policy_ei(), n_init = 4, seed = 1, progress = TRUE),
    costbo_progress = function(m) {
      msgs[[length(msgs) + 1L]] <<- m
      invokeRestart("muffleMessage")
    })
  evals <- Filter(function(m) !is.null(m$evaluation), msgs)
  y <- apply(run$X, 1L, loss)
  expect_identical(length(evals), length(y))
  expect_identical(vapply(evals, `[[`, 0, "value"), y)
  expect_identical(vapply(evals, `[[`, 0, "best"), cummin(y))
  bm <- withCallingHandlers(
    bo_benchmark(list(loss = prob), list(EI = policy_ei()), reps = 1,
                 n_init = 4, progress = TRUE),
    costbo_progress = function(m) {
      msgs[[length(msgs) + 1L]] <<- m
      invokeRestart("muffleMessage")
    })
  reps <- Filter(function(m) !is.null(m$replication), msgs)
  expect_identical(reps[[1L]]$best, bm$replications$best_value)
  expect_gte(reps[[1L]]$best, 1)
})
