# Progress reports of runs and benchmarks.

# The costbo_progress messages signalled while evaluating `expr`, muffled,
# with the value of `expr`.
capture_progress <- function(expr) {
  seen <- list()
  value <- withCallingHandlers(expr, costbo_progress = function(m) {
    seen[[length(seen) + 1L]] <<- m
    invokeRestart("muffleMessage")
  })
  list(value = value, messages = seen)
}

# The numbers after `label` in the report lines.
line_number <- function(lines, label) {
  pattern <- sprintf(".*%s (-?[0-9.e+-]+).*", label)
  # NA where the line shows none ("value failed")
  suppressWarnings(as.numeric(sub(pattern, "\\1", lines)))
}

# The cumulative best of the successful values, row by row.
running_best <- function(df) {
  best <- cummax(ifelse(df$status == "ok", df$value, -Inf))
  replace(best, best == -Inf, NA_real_)
}

test_that("a run reports every evaluation, the initial design's included", {
  prob <- known_cost_problem(budget = 60)
  cap <- capture_progress(bo_optimize(prob, policy_ei_pu(), n_init = 4,
                                      charge_initial = TRUE,
                                      max_evaluations = 4, seed = 3,
                                      progress = TRUE))
  df <- as.data.frame(cap$value)
  lines <- vapply(cap$messages, conditionMessage, "")
  # one plain line per evaluation outside a console
  expect_length(lines, nrow(df))
  expect_true(all(grepl("^\\[costbo\\] .*\n$", lines)))
  expect_false(any(grepl("\r", lines, fixed = TRUE)))
  expect_identical(vapply(cap$messages, function(m) m$phase, ""), df$phase)
  expect_identical(sum(df$phase == "initial"), 4L)
  expect_true(all(mapply(grepl, sprintf("initial %d/4", 1:4), lines[1:4])))
  expect_true(all(grepl(" bo ", lines[-(1:4)])))
  # the numbers shown are the run's, to 4 significant digits
  expect_equal(line_number(lines, "cost"), df$cost, tolerance = 5e-4)
  expect_equal(line_number(lines, "value"), df$value, tolerance = 5e-4)
  expect_equal(line_number(lines, "spent"), df$cumulative_cost,
               tolerance = 5e-4)
  expect_equal(as.numeric(sub(".*spent [^/]*/([0-9.]+) .*", "\\1", lines)),
               rep(60, nrow(df)))
  expect_equal(line_number(lines, "best"), running_best(df), tolerance = 5e-4)
  # and exactly in the conditions' fields
  field <- function(name) vapply(cap$messages, function(m) m[[name]], 0)
  expect_identical(field("evaluation"), as.double(seq_len(nrow(df))))
  expect_identical(field("cost"), df$cost)
  expect_identical(field("spent"), df$cumulative_cost)
  expect_identical(field("best"), running_best(df))
})

test_that("progress = FALSE is silent, and the reports are suppressible", {
  prob <- known_cost_problem(budget = 60)
  run <- function(progress) {
    bo_optimize(prob, policy_ei(), n_init = 4, charge_initial = TRUE,
                max_evaluations = 2, seed = 1, progress = progress)
  }
  expect_silent(run(FALSE))
  expect_silent(suppressMessages(run(TRUE), classes = "costbo_progress"))
  # a report is a message of its own classes
  cap <- capture_progress(run(TRUE))
  expect_length(cap$messages, 6L)
  expect_s3_class(cap$messages[[1]], c("costbo_progress", "costbo_message",
                                       "message", "condition"), exact = TRUE)
})

test_that("failed evaluations and measured costs are reported as recorded", {
  prob <- measured_cost_problem(budget = 8)
  f <- prob$objective
  prob$objective <- function(x) if (x[1] > 7) stop("broken") else f(x)
  cap <- capture_progress(bo_optimize(prob, policy_ei_pu(), n_init = 5,
                                      charge_initial = FALSE, seed = 2,
                                      progress = TRUE, on_error = "skip"))
  df <- as.data.frame(cap$value)
  lines <- vapply(cap$messages, conditionMessage, "")
  expect_length(lines, nrow(df))
  failed <- df$status != "ok"
  expect_true(any(failed))
  expect_identical(grepl("value failed", lines), failed)
  expect_equal(line_number(lines, "spent"), df$cumulative_cost,
               tolerance = 5e-4)
  expect_equal(line_number(lines, "best"), running_best(df), tolerance = 5e-4)
})

test_that("asynchronous runs report each finished evaluation and its worker", {
  prob <- known_cost_problem(budget = 60)
  cap <- capture_progress(bo_optimize(prob, policy_ei_pu(), n_init = 4,
                                      charge_initial = TRUE,
                                      max_evaluations = 4, workers = 2,
                                      clock = "simulated", seed = 1,
                                      progress = TRUE))
  df <- as.data.frame(cap$value)
  lines <- vapply(cap$messages, conditionMessage, "")
  expect_length(lines, nrow(df))
  expect_identical(as.integer(sub(".* w([0-9]+) .*", "\\1", lines)),
                   df$worker)
  expect_true(all(grepl("initial [1-4]/4", lines[df$phase == "initial"])))
  expect_equal(line_number(lines, "spent"), df$cumulative_cost,
               tolerance = 5e-4)
  expect_equal(line_number(lines, "best"), running_best(df), tolerance = 5e-4)
})

test_that("a resumed run reports the evaluations it adds, numbered on", {
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  prob <- known_cost_problem(budget = 60)
  part <- bo_optimize(prob, policy_ei(), n_init = 4, seed = 1,
                      charge_initial = TRUE,
                      max_evaluations = 1, checkpoint = f, progress = FALSE)
  cap <- capture_progress(bo_resume(f, max_evaluations = 3, progress = TRUE))
  df <- as.data.frame(cap$value)
  n0 <- nrow(as.data.frame(part))
  expect_length(cap$messages, nrow(df) - n0)
  expect_identical(vapply(cap$messages, function(m) m$evaluation, 0),
                   as.double((n0 + 1L):nrow(df)))
  expect_identical(vapply(cap$messages, function(m) m$spent, 0),
                   df$cumulative_cost[-seq_len(n0)])
})

test_that("a benchmark reports each replication with its final numbers", {
  probs <- list(branin = test_problem("branin", budget = 8))
  pols <- list(EI = policy_ei(), random = policy_random())
  cap <- capture_progress(bo_benchmark(probs, pols, reps = 2, n_init = 4,
                                       charge_initial = TRUE,
                                       progress = TRUE))
  bm <- cap$value
  reps <- bm$replications
  lines <- vapply(cap$messages, conditionMessage, "")
  expect_length(lines, nrow(reps))
  expect_identical(vapply(cap$messages, function(m) m$policy, ""),
                   reps$policy)
  expect_identical(vapply(cap$messages, function(m) m$rep, 0L),
                   as.integer(reps$rep))
  ev <- bm$evaluations
  for (i in seq_len(nrow(reps))) {
    e <- ev[ev$policy == reps$policy[i] & ev$rep == reps$rep[i], ]
    m <- cap$messages[[i]]
    expect_identical(m$evaluations, nrow(e))
    expect_identical(m$spent, e$cumulative_cost[nrow(e)])
    expect_identical(m$best, max(e$value[e$status == "ok"]))
  }
  expect_equal(line_number(lines, "best"),
               vapply(cap$messages, function(m) m$best, 0), tolerance = 5e-4)
  expect_silent(bo_benchmark(probs, pols, reps = 1, n_init = 4,
                             charge_initial = TRUE, progress = FALSE))
})

test_that("a console rewrites one line; the printed lines are stable", {
  m <- capture_progress(costbo:::progress_signal("[costbo] text",
                                                console = TRUE))$messages[[1]]
  expect_match(conditionMessage(m), "^\r\\[costbo\\] text +$")
  expect_identical(nchar(conditionMessage(m)), 80L)
  prob <- bo_problem(function(x) sin(6 * x), lower = 0, upper = 1,
                     cost = function(x) 1 + x, budget = 100)
  expect_snapshot(invisible(bo_optimize(
    prob, policy_random(), n_init = 2, max_evaluations = 2, seed = 1,
    charge_initial = TRUE, progress = TRUE)))
})

test_that("progressr steps count a run's budget and a benchmark's replications", {
  skip_if_not_installed("progressr")
  skip_if_not_installed("future.apply")
  # progressr reports outside interactive sessions only when enabled
  op <- options(progressr.enable = TRUE)
  on.exit(options(op), add = TRUE)
  # the progression conditions, whether or not a handler renders them
  steps <- function(expr) {
    seen <- list()
    suppressMessages(withCallingHandlers(expr, progression = function(p) {
      seen[[length(seen) + 1L]] <<- p
    }))
    seen[vapply(seen, function(p) identical(p$type, "update"), NA)]
  }
  prob <- known_cost_problem(budget = 60)
  up <- steps(run <- bo_optimize(prob, policy_ei_pu(), n_init = 4,
                                 charge_initial = TRUE, max_evaluations = 2,
                                 seed = 1, progress = TRUE))
  df <- as.data.frame(run)
  expect_length(up, nrow(df))
  expect_equal(vapply(up, function(p) p$amount, 0), df$cost)
  expect_length(steps(bo_optimize(prob, policy_ei_pu(), n_init = 4,
                                  max_evaluations = 2, seed = 1,
                                  progress = FALSE)), 0L)
  up <- steps(run <- bo_optimize(prob, policy_ei_pu(), n_init = 4, seed = 1,
                                 charge_initial = TRUE, max_evaluations = 2,
                                 workers = 2, clock = "simulated",
                                 progress = TRUE))
  expect_length(up, nrow(as.data.frame(run)))
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  probs <- list(branin = test_problem("branin", budget = 6))
  pols <- list(EI = policy_ei(), random = policy_random())
  up <- steps(bm <- bo_benchmark(probs, pols, reps = 2, n_init = 4,
                                 charge_initial = TRUE, backend = "future",
                                 progress = TRUE))
  expect_length(up, 4L)
  expect_setequal(vapply(up, function(p) p$message, ""),
                  sprintf("branin  %s  rep %d", rep(c("EI", "random"), 2),
                          rep(1:2, each = 2)))
})
