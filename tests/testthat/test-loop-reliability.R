# Reliability of the loop (issue 16): settings checked before paying, cost
# functions under the objective's error handling, checkpoints that cannot be
# written or are damaged, resuming an interrupted initial design, and
# failures that inform the policy.

# A problem whose objective counts its calls in `calls$n`.
counted <- function(prob) {
  calls <- new.env()
  calls$n <- 0L
  f <- prob$objective
  prob$objective <- function(...) {
    calls$n <- calls$n + 1L
    f(...)
  }
  list(prob = prob, calls = calls)
}

interrupt_now <- function() {
  signalCondition(structure(class = c("interrupt", "condition"),
                            list(message = "", call = NULL)))
}

test_that("bad settings are errors naming the argument before anything is paid", {
  k <- counted(known_cost_problem(budget = 20))
  e <- expect_error(bo_optimize(k$prob, policy_ei(), seed = 1,
                                gp_args = list(kernel = "foo"),
                                progress = FALSE),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "^`gp_args` .*`kernel` must be one of")
  expect_identical(k$calls$n, 0L)
  # the log-cost GP's settings are named as such
  m <- counted(measured_cost_problem(budget = 20))
  e <- expect_error(bo_optimize(m$prob, policy_ei_pu(), seed = 1,
                                gp_args = list(cost = list(kernel = "foo")),
                                progress = FALSE),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "^`gp_args\\$cost` ")
  e <- expect_error(bo_optimize(m$prob, policy_ei_pu(), seed = 1,
                                gp_args = list(lengthscale = c(1, 2, 3)),
                                progress = FALSE),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "^`gp_args` .*`lengthscale`")
  expect_identical(m$calls$n, 0L)
  # a known cost written in R that KG calls from C returns a bad value in
  # part of the box: reported, naming `cost`, before anything is paid
  b <- counted(bo_problem(function(x) sum(x), c(0, 0), c(1, 1),
                          cost = function(x) if (x[1] > 0.5) NA else 1,
                          budget = 5))
  e <- expect_error(bo_optimize(b$prob, policy_kg(), seed = 1,
                                progress = FALSE),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "^`cost` .*not NA")
  expect_identical(conditionCall(e)[[1L]], quote(bo_optimize))
  expect_error(bo_session(b$prob, policy_kg_rollout()),
               "^`cost` ", class = "costbo_error_arg")
  expect_identical(b$calls$n, 0L)
  r <- counted(bo_problem(function(x) sum(x), c(0, 0), c(1, 1),
                          cost = function(x) 1 + x[1], budget = 5))
  # the same problem with EI runs: the whole default design (a free one:
  # charged, it would end within a quarter of the budget of 5) and one step
  run <- bo_optimize(r$prob, policy_ei(), seed = 1, max_evaluations = 1,
                     charge_initial = FALSE, progress = FALSE)
  expect_identical(nrow(as.data.frame(run)), 7L)
  # an explicit prior with no evaluation at all
  p <- counted(bo_problem(function(x) sum(x), candidates = matrix(1:10, 5),
                          prior = list(mean = rep(0, 5), cov = diag(5)),
                          cost = 1, budget = 3))
  expect_error(bo_optimize(p$prob, policy_ei(), n_init = 0, seed = 1,
                           progress = FALSE),
               "^`n_init` ", class = "costbo_error_arg")
  expect_identical(p$calls$n, 0L)
})

test_that("checking before paying leaves the random-number generator alone", {
  prob <- test_problem_miso("goldstein_price", budget = 30)
  st <- costbo:::new_state(prob, policy_kg(), FALSE, list())
  set.seed(3)
  runif(1)
  s0 <- .Random.seed
  expect_true(costbo:::check_run_ready(st, NULL))
  expect_identical(.Random.seed, s0)
  # nor does it create a generator state where there was none
  old <- .Random.seed
  rm(".Random.seed", envir = globalenv())
  on.exit(assign(".Random.seed", old, envir = globalenv()))
  costbo:::check_run_ready(costbo:::new_state(known_cost_problem(),
                                               policy_bmsei(steps = 2,
                                                            fantasies = 2),
                                               FALSE, list()), NULL)
  expect_false(exists(".Random.seed", envir = globalenv(), inherits = FALSE))
})

test_that("a failing known cost function is a recorded failure, never a lost run", {
  lo <- c(-5, 0)
  up <- c(10, 15)
  cl <- cost_linear(lo, up)
  for (bad in list(function(x) stop("price server down"),
                   function(x) c(1, 2), function(x) NA, function(x) -1)) {
    cost <- function(x) if (x[1] > 2.5) bad(x) else cl(x)
    k <- counted(bo_problem(branin_max, lo, up, cost = cost, budget = 40))
    run <- bo_optimize(k$prob, policy_ei(), seed = 1, on_error = "skip",
                       progress = FALSE)
    df <- as.data.frame(run)
    bad_rows <- df$x1 > 2.5
    expect_true(any(bad_rows))
    expect_identical(df$status[bad_rows], rep("error", sum(bad_rows)))
    expect_true(all(is.na(df$cost[bad_rows]) & is.na(df$value[bad_rows])))
    expect_false(any(df$cost_valid[bad_rows]))
    expect_match(df$message[bad_rows], "^the cost function (failed|returned)")
    # the objective is not called where the cost is unknown
    expect_identical(k$calls$n, sum(!bad_rows))
    ok <- !bad_rows
    expect_equal(df$value[ok], unname(apply(as.matrix(df[ok, c("x1", "x2")]),
                                            1L, branin_max)))
    # the design is charged: every valid cost is paid, no failed one, and
    # never more than the budget
    expect_equal(run$spent, sum(df$cost[ok]))
    expect_equal(df$cumulative_cost, cumsum(ifelse(ok, df$cost, 0)))
    expect_lte(run$spent, 40)
    expect_equal(df$cost[ok], unname(apply(as.matrix(df[ok, c("x1", "x2")]),
                                           1L, cl)))
    expect_output(print(run), "failed")
    expect_identical(summary(run)$n_failed, sum(bad_rows))
    # the rule "stop" with a free design: only the optimization's valid
    # costs are paid
    old <- bo_optimize(k$prob, policy_ei(), seed = 1, on_error = "skip",
                       charge_initial = FALSE, budget_rule = "stop",
                       progress = FALSE)
    dold <- as.data.frame(old)
    ok_old <- dold$status == "ok"
    expect_true(any(!ok_old))
    expect_equal(old$spent, sum(dold$cost[ok_old & dold$phase == "bo"]))
    # on_error = "stop" ends the run at the first such point, keeping it all
    # and saying so
    expect_warning(st <- bo_optimize(k$prob, policy_ei(), seed = 1,
                                     progress = FALSE),
                   "the cost function", class = "costbo_warning_failed")
    expect_match(st$stop_reason, "^the cost function")
    ds <- as.data.frame(st)
    expect_identical(sum(ds$status == "error"), 1L)
    expect_identical(ds$status[nrow(ds)], "error")
  }
  # with information sources, a source cost function that fails
  prob <- test_problem_miso("goldstein_price", budget = 30)
  sc <- prob$source_cost
  prob$source_cost <- function(x, s) if (s == 2L && x[1] > 0) -1 else sc(x, s)
  run <- bo_optimize(prob, policy_kg(), seed = 2, max_evaluations = 2,
                     on_error = "skip", progress = FALSE)
  df <- as.data.frame(run)
  bad_rows <- df$source == 2L & df$x1 > 0
  expect_true(any(bad_rows))
  expect_true(all(df$status[bad_rows] == "error" & is.na(df$cost[bad_rows])))
  expect_true(all(df$status[!bad_rows] == "ok"))
})

test_that("a bad measured cost keeps its valid value, marked", {
  f <- branin_max
  prob <- bo_problem(function(x) {
    list(value = f(x), cost = if (x[2] > 10) NA else exp(2 * (x[1] + 5) / 15))
  }, c(-5, 0), c(10, 15), budget = 12)
  run <- bo_optimize(prob, policy_ei_pu(), seed = 3, on_error = "skip",
                     progress = FALSE)
  df <- as.data.frame(run)
  bad <- df$x2 > 10
  expect_true(any(bad) && any(!bad))
  expect_identical(df$status, rep("ok", nrow(df)))
  expect_equal(df$value, unname(apply(as.matrix(df[, c("x1", "x2")]), 1L, f)))
  expect_identical(df$cost_valid, !bad)
  expect_true(all(is.na(df$cost[bad])))
  expect_match(df$message[bad], "not a positive number \\(the value is kept\\)")
  # the design is charged: every valid cost is paid, the invalid one not
  expect_equal(run$spent, sum(df$cost[!bad]))
  expect_equal(df$cumulative_cost, cumsum(ifelse(bad, 0, df$cost)))
  # the value counts, the cost model learns from the valid costs only: the
  # run ended when no point was predicted to fit, a decision made with all
  # the valid costs
  expect_equal(summary(run)$best_value, max(df$value))
  expect_match(run$stop_reason, "no point fits in the remaining budget")
  expect_identical(run$models$cost$n, sum(!bad))
  # the rule "stop" with a free design: only the optimization's valid costs
  # are paid, and the evaluation that crosses the budget ends the run
  # before the cost model sees it
  old <- bo_optimize(prob, policy_ei_pu(), seed = 3, on_error = "skip",
                     charge_initial = FALSE, budget_rule = "stop",
                     progress = FALSE)
  dold <- as.data.frame(old)
  bad_old <- dold$x2 > 10
  expect_true(any(bad_old) && any(!bad_old))
  expect_identical(dold$cost_valid, !bad_old)
  expect_equal(old$spent, sum(dold$cost[!bad_old & dold$phase == "bo"]))
  expect_false(dold$within_budget[nrow(dold)])
  expect_identical(old$models$cost$n,
                   sum(!bad_old[seq_len(nrow(dold) - 1L)]))
  # with on_error = "stop" the run ends there, the value kept, and says so
  expect_warning(st <- bo_optimize(prob, policy_ei_pu(), seed = 3,
                                   progress = FALSE),
                 class = "costbo_warning_failed")
  ds <- as.data.frame(st)
  expect_match(st$stop_reason, "failed")
  expect_false(ds$cost_valid[nrow(ds)])
  expect_equal(ds$value[nrow(ds)], f(unname(unlist(ds[nrow(ds),
                                                       c("x1", "x2")]))))
  # and a valid cost measured with an invalid value is kept and charged
  prob2 <- bo_problem(function(x) list(value = if (x[1] > 5) NA else f(x),
                                       cost = 2), c(-5, 0), c(10, 15),
                      budget = 10, name = "value fails")
  r2 <- bo_optimize(prob2, policy_ei(), seed = 1, n_init = 4,
                    on_error = "skip", charge_initial = TRUE, progress = FALSE)
  d2 <- as.data.frame(r2)
  expect_true(any(d2$status == "error"))
  expect_identical(d2$cost, rep(2, nrow(d2)))
  expect_equal(r2$spent, 2 * nrow(d2))
})

test_that("ask/tell: a failing cost function asks for the cost; an unmeasured cost keeps the value", {
  prob <- bo_problem(function(x) NA, lower = 0, upper = 1,
                     cost = function(x) if (x > 0.5) stop("no price") else 1,
                     budget = 5)
  init <- data.frame(x1 = c(0.1, 0.3, 0.45), value = c(0.2, 0.8, 0.1))
  s <- bo_session(prob, policy_ei(), initial = init)
  expect_error(bo_tell(s, 0.7, value = 1), "`cost` .*no price",
               class = "costbo_error_arg")
  s2 <- bo_tell(s, 0.7, value = 1, cost = 3)
  expect_equal(as.data.frame(s2)$cost[4], 3)
  mp <- bo_problem(function(x) NA, lower = 0, upper = 1, budget = 5)
  # a free initial design: nothing is paid but what is told
  s <- bo_session(mp, policy_ei_pu(),
                  initial = cbind(init, cost = c(1, 2, 1.5)))
  s <- bo_tell(s, 0.9, value = 0.5, cost = NA)
  df <- as.data.frame(s)
  expect_identical(df$status[4], "ok")
  expect_false(df$cost_valid[4])
  expect_equal(df$value[4], 0.5)
  expect_equal(s$spent, 0)
  expect_s3_class(bo_ask(s), "bo_point")
  # charged: the initial costs are paid and the unmeasured one adds
  # nothing; the 0.5 left is less than every cost seen, so no point is
  # predicted to fit and nothing more is asked
  s <- bo_session(mp, policy_ei_pu(),
                  initial = cbind(init, cost = c(1, 2, 1.5)),
                  charge_initial = TRUE)
  s <- bo_tell(s, 0.9, value = 0.5, cost = NA)
  expect_equal(as.data.frame(s)$cumulative_cost, c(1, 3, 4.5, 4.5))
  expect_equal(s$spent, 4.5)
  # nothing the session could propose fits the 0.5 left
  expect_true(is_finished(s))
  expect_error(bo_ask(s), "nothing affordable remains",
               class = "costbo_error_budget")
})

test_that("a checkpoint that cannot be written warns, is recorded, and loses nothing", {
  dir <- tempfile("ckpt-dir-")
  dir.create(dir)
  f <- file.path(dir, "run.rds")
  prob <- known_cost_problem(budget = 40)
  g <- prob$objective
  n <- 0L
  prob$objective <- function(x) {
    n <<- n + 1L
    if (n == 9L) unlink(dir, recursive = TRUE)
    g(x)
  }
  # a free design, so that the run lasts past the ninth evaluation
  expect_warning(run <- bo_optimize(prob, policy_ei_pu(), seed = 1,
                                    checkpoint = f, charge_initial = FALSE,
                                    progress = FALSE),
                 "could not be written", class = "costbo_warning_checkpoint")
  ref <- bo_optimize(known_cost_problem(budget = 40), policy_ei_pu(),
                     seed = 1, charge_initial = FALSE, progress = FALSE)
  # every evaluation is kept and the run is the one without checkpoints
  expect_identical(run_frame(run), run_frame(ref))
  expect_identical(run$stop_reason, ref$stop_reason)
  expect_gt(nrow(as.data.frame(run)), 9L)
  expect_identical(run$checkpoint_error$n, nrow(as.data.frame(run)) - 8L)
  expect_identical(run$checkpoint_error$evaluations,
                   nrow(as.data.frame(run)))
  expect_output(print(run), "checkpoint: .*writes failed")
  expect_output(print(summary(run)), "checkpoint: ")
})

test_that("failed checkpoint writes leave no connection open (issue 39)", {
  # 500 failures: R's connection table has 128 slots, so a leak of one
  # connection per failure (file()'s warning caught by an exiting handler)
  # would exhaust it; the writer is called directly, since the loop is not
  # what is tested
  n0 <- nrow(showConnections(all = TRUE))
  missing <- file.path(tempfile("no-such-dir-"), "run.rds")
  # a path whose temporary file cannot be opened: a directory
  taken <- tempfile("ckpt-")
  dir.create(paste0(taken, ".tmp"))
  on.exit(unlink(paste0(taken, ".tmp"), recursive = TRUE), add = TRUE)
  state <- list(value = c(1, 2))
  expect_warning(
    state <- costbo:::save_checkpoint(state, list(checkpoint = missing)),
    "could not be written.*No such file", class = "costbo_warning_checkpoint")
  for (i in 2:250) {
    # a warning at the first failure only
    expect_no_warning(
      state <- costbo:::save_checkpoint(state, list(checkpoint = missing)))
  }
  for (i in 1:250) {
    state <- costbo:::save_checkpoint(state, list(checkpoint = taken))
  }
  expect_identical(state$checkpoint_error$n, 500L)
  expect_identical(state$checkpoint_error$evaluations, 2L)
  expect_identical(nrow(showConnections(all = TRUE)), n0)
  expect_false(file.exists(dirname(missing)))
  expect_false(file.exists(taken))
  # files can still be written, and the session still works with future
  f <- tempfile(fileext = ".rds")
  g <- tempfile(fileext = ".csv")
  on.exit(unlink(c(f, g)), add = TRUE)
  expect_no_error(saveRDS(1:3, f))
  expect_identical(readRDS(f), 1:3)
  expect_no_error(utils::write.csv(data.frame(a = 1:2), g, row.names = FALSE))
  expect_identical(utils::read.csv(g)$a, 1:2)
  skip_if_not_installed("future")
  old <- future::plan("sequential")
  on.exit(future::plan(old), add = TRUE)
  expect_identical(future::value(future::future(1L + 1L)), 2L)
})

test_that("a run interrupted during its initial design resumes it bit for bit", {
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  # a noisy objective: the resumed run must draw the same noise
  noisy <- function(x) branin_max(x) + stats::rnorm(1, sd = 0.1)
  prob <- bo_problem(noisy, c(-5, 0), c(10, 15), cost = 1, budget = 5,
                     noise = TRUE)
  # free designs: charged, the design of 6 would not fit in the budget of 5
  full <- bo_optimize(prob, policy_ei(), n_init = 6, seed = 21,
                      charge_initial = FALSE, progress = FALSE)
  n <- 0L
  broken <- prob
  broken$objective <- function(x) {
    n <<- n + 1L
    if (n == 4L) interrupt_now()
    noisy(x)
  }
  part <- bo_optimize(broken, policy_ei(), n_init = 6, seed = 21,
                      checkpoint = f, charge_initial = FALSE,
                      progress = FALSE)
  expect_identical(part$stop_reason, "interrupted")
  expect_identical(nrow(as.data.frame(part)), 3L)
  set.seed(1)
  runif(3)
  # (the objective given again is not the broken one saved)
  expect_warning(resumed <- bo_resume(f, problem = prob, progress = FALSE),
                 class = "costbo_warning_checkpoint")
  expect_identical(sum(resumed$phase == "initial"), 6L)
  expect_identical(run_frame(resumed), run_frame(full))
  expect_identical(resumed$stop_reason, full$stop_reason)
  # with information sources: every initial point at every source
  mp <- test_problem_miso("goldstein_price", budget = 24)
  fullm <- bo_optimize(mp, policy_kg(), n_init = 3, seed = 5,
                       max_evaluations = 1, charge_initial = FALSE,
                       progress = FALSE)
  n <- 0L
  bm <- mp
  mo <- mp$objective
  bm$objective <- function(x, source) {
    n <<- n + 1L
    if (n == 5L) interrupt_now()
    mo(x, source)
  }
  partm <- bo_optimize(bm, policy_kg(), n_init = 3, seed = 5,
                       max_evaluations = 1, checkpoint = f,
                       charge_initial = FALSE, progress = FALSE)
  expect_identical(nrow(as.data.frame(partm)), 4L)
  expect_warning(resm <- bo_resume(f, problem = mp, progress = FALSE),
                 class = "costbo_warning_checkpoint")
  expect_identical(run_frame(resm), run_frame(fullm))
})

test_that("failures inform the policy: a failing half of the box stops absorbing the budget", {
  prob <- bo_problem(function(x) {
    if (x[1] > 2.5) stop("simulation crashed")
    branin_max(x)
  }, c(-5, 0), c(10, 15), cost = 1, budget = 30)
  # a free design: the budget of 30 pays for 30 optimization steps
  run <- bo_optimize(prob, policy_ei(), seed = 1, on_error = "skip",
                     charge_initial = FALSE, progress = FALSE)
  df <- as.data.frame(run)
  bo <- df$phase == "bo"
  # before failures informed the model: 7 evaluations, all 7 failed, then
  # EI proposed a failed point again and the run ended
  expect_identical(sum(bo), 30L)
  expect_lte(sum(df$status[bo] == "error"), 5L)
  expect_identical(run$stop_reason, "budget spent")
  # the maximum on the working half, 0.397887 at (-pi, 12.275)
  expect_gt(max(df$value, na.rm = TRUE), -0.45)
})

test_that("failed points enter the model at the worst successful value", {
  prob <- known_cost_problem()
  st <- costbo:::new_state(prob, policy_ei(), FALSE, list())
  X <- rbind(c(0, 1), c(1, 2), c(2, 3), c(3, 4), c(4, 5))
  v <- c(-3, NA, -1, NA, -7)
  for (i in 1:5) {
    st <- costbo:::state_record(st, costbo:::new_step(X[i, ]), v[i], 1,
                                "initial",
                                status = if (is.na(v[i])) "error" else "ok")
  }
  md <- costbo:::state_model_data(st)
  expect_identical(md$use, rep(TRUE, 5))
  expect_identical(md$y, c(-3, -7, -1, -7, -7))
  fit <- costbo:::state_fit(st)$models$f
  expect_identical(fit$n, 5L)
  # the model's mean at a failed point is (nearly) the worst value
  expect_equal(predict(fit, X[2, , drop = FALSE])$mean, -7, tolerance = 0.05)
  # without failures: the successful evaluations alone, as before
  ok <- costbo:::new_state(prob, policy_ei(), FALSE, list())
  for (i in c(1, 3, 5)) {
    ok <- costbo:::state_record(ok, costbo:::new_step(X[i, ]), v[i], 1,
                                "initial")
  }
  expect_identical(costbo:::state_model_data(ok),
                   list(use = rep(TRUE, 3), y = c(-3, -1, -7)))
  # with information sources, the worst of the same source
  mp <- test_problem_miso("goldstein_price")
  ms <- costbo:::new_state(mp, policy_kg(), FALSE, list())
  src <- c(0L, 1L, 0L, 1L, 2L)
  for (i in 1:5) {
    ms <- costbo:::state_record(ms, costbo:::new_step(X[i, ], source = src[i]),
                                c(-3, -2, NA, NA, NA)[i], 1, "initial",
                                status = if (i > 2) "error" else "ok")
  }
  expect_identical(costbo:::state_model_data(ms)$y, c(-3, -2, -3, -2, -3))
})

test_that("ask/tell: bo_ask() does not propose a point that just failed", {
  prob <- bo_problem(function(x) NA, lower = c(0, 0), upper = c(1, 1),
                     cost = 1, budget = 10)
  f <- function(x) sin(5 * x[1]) + cos(3 * x[2])
  set.seed(8)
  X0 <- matrix(runif(10), 5)
  s <- bo_session(prob, policy_ei(), initial = data.frame(
    x1 = X0[, 1], x2 = X0[, 2], value = apply(X0, 1, f)))
  x1 <- bo_ask(s)
  s <- bo_tell(s, x1, NA)
  x2 <- bo_ask(s)
  expect_gt(sqrt(sum((as.numeric(x2) - as.numeric(x1))^2)), 0.05)
  # the model now puts the failed point at the worst value observed
  fit <- attr(x2, "models")$f
  expect_equal(predict(fit, matrix(as.numeric(x1), 1))$mean,
               min(apply(X0, 1, f)), tolerance = 0.05)
})

# A checkpoint of a two-step EI run on known_cost_problem(budget), and a
# second file name for altered copies.
checkpoint_files <- function(budget) {
  f <- tempfile(fileext = ".rds")
  bo_optimize(known_cost_problem(budget = budget), policy_ei(), seed = 2,
              max_evaluations = 2, checkpoint = f, progress = FALSE)
  list(f = f, g = tempfile(fileext = ".rds"))
}

test_that("damaged, truncated or wrong checkpoint files are refused, naming the file", {
  cf <- checkpoint_files(20)
  f <- cf$f
  g <- cf$g
  on.exit(unlink(c(f, g)))
  bytes <- readBin(f, "raw", file.size(f))
  full <- bo_resume(f, max_evaluations = 4, progress = FALSE)
  refused <- function(b, why = NULL) {
    writeBin(b, g)
    e <- expect_error(bo_resume(g, progress = FALSE),
                      class = "costbo_error_arg")
    expect_true(grepl(g, conditionMessage(e), fixed = TRUE))
    if (!is.null(why)) expect_match(conditionMessage(e), why)
  }
  refused(bytes[seq_len(length(bytes) - 7L)], "truncated")
  refused(bytes[seq_len(60L)])
  refused(raw(0))
  refused(c(bytes, as.raw(1L)), "after its end")
  # a fixed sample of the header's bits (one bit of every byte, then other
  # bits up to 96 distinct flips), and bits spread over the content
  header <- which(bytes == as.raw(10L))[4L]
  flip <- function(pos, bit) {
    b <- bytes
    b[pos] <- xor(b[pos], as.raw(bitwShiftL(1L, bit)))
    b
  }
  set.seed(3)
  each <- 8L * (seq_len(header) - 1L) + sample(0:7, header, replace = TRUE)
  more <- setdiff(seq_len(8L * header) - 1L, each)
  flips <- c(each, more[sample.int(length(more), max(0L, 96L - header))])
  expect_gte(length(flips), 64L)
  expect_setequal(flips %/% 8L + 1L, seq_len(header))
  for (k in flips) refused(flip(k %/% 8L + 1L, k %% 8L))
  set.seed(4)
  for (pos in c(header + 1L, length(bytes),
                sample(seq.int(header + 2L, length(bytes) - 1L), 40L))) {
    refused(flip(pos, sample(0:7, 1L)), "damaged|decoded")
  }
  # files that are not checkpoints
  saveRDS(iris, g)
  refused(readBin(g, "raw", file.size(g)), "not a file written by")
  writeLines("x,y\n1,2", g)
  refused(readBin(g, "raw", file.size(g)))
  # the intact file still resumes
  expect_identical(run_frame(bo_resume(f, max_evaluations = 4,
                                       progress = FALSE)), run_frame(full))
})

test_that("checkpoints of the format without checksum are read with a warning", {
  cf <- checkpoint_files(60)
  f <- cf$f
  g <- cf$g
  on.exit(unlink(c(f, g)))
  saved <- costbo:::read_checkpoint(f)
  saveRDS(c(list(format = "costbo checkpoint"), saved), g)
  new <- bo_resume(f, max_evaluations = 4, progress = FALSE)
  expect_warning(old <- bo_resume(g, max_evaluations = 4, progress = FALSE),
                 "without a checksum", class = "costbo_warning_checkpoint")
  expect_identical(run_frame(old), run_frame(new))
  expect_identical(sum(new$phase == "bo"), 4L)
  # a resumed run checkpoints in the new format
  expect_identical(readBin(g, "raw", 18L),
                   charToRaw("costbo checkpoint\n"))
})

test_that("a custom policy's bad proposal stops the run, unpaid (issue 39)", {
  prob <- known_cost_problem(budget = 60)
  bad <- list(null = NULL, na = c(NA_real_, 1), short = 1,
              long = c(1, 2, 3), outside = c(11, 5), inf = c(Inf, 5),
              text = c("1", "2"))
  for (nm in names(bad)) {
    x <- bad[[nm]]
    pol <- structure(list(
      name = "broken", label = "broken", params = list(),
      propose = function(state) list(x = x, info = list(),
                                     memory = state$memory),
      acquisition = function(state, X) rep(0, nrow(X)), init = NULL
    ), class = "bo_policy")
    for (w in c(1L, 2L)) {
      args <- list(prob, pol, n_init = 3, seed = 1, progress = FALSE)
      if (w == 2L) args <- c(args, list(workers = 2L, clock = "simulated"))
      run <- do.call(bo_optimize, args)
      info <- paste(nm, "workers", w)
      expect_identical(run$stop_code, "policy_failed", info = info)
      expect_match(run$stop_reason, "broken", info = info)
      df <- as.data.frame(run)
      expect_identical(nrow(df), 3L, info = info)
      expect_true(all(is.finite(as.matrix(run$X))), info = info)
      expect_equal(run$spent, sum(run$cost[run$charged]), info = info)
    }
    s <- bo_session(prob, pol, initial = data.frame(
      x1 = c(0, 5, -2), x2 = c(5, 10, 2), value = c(-20, -30, -25)))
    expect_error(bo_ask(s), class = "costbo_error_policy", info = nm)
    e <- tryCatch(bo_ask(s), error = identity)
    expect_match(conditionMessage(e), "broken", info = nm)
  }
})

test_that("a checkpoint of NA, \"\" or no string is refused before paying (issue 39)", {
  old <- setwd(tempdir())
  on.exit(setwd(old))
  unlink(c("NA", "NA.tmp"))
  calls <- 0L
  prob <- bo_problem(function(x) {
    calls <<- calls + 1L
    sum(x)
  }, c(0, 0), c(1, 1), cost = 1, budget = 5)
  for (bad in list(NA_character_, "", NA, 1, c("a.rds", "b.rds"))) {
    expect_error(bo_optimize(prob, policy_ei(), n_init = 3,
                             checkpoint = bad, progress = FALSE),
                 class = "costbo_error_arg")
    e <- tryCatch(bo_optimize(prob, policy_ei(), n_init = 3,
                              checkpoint = bad, progress = FALSE),
                  error = identity)
    expect_identical(e$arg, "checkpoint")
  }
  expect_identical(calls, 0L)
  expect_false(file.exists("NA.tmp"))
  expect_false(file.exists("NA"))
})

test_that("a checkpoint carries its run's identity, and bo_resume() refuses another run's", {
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  obj <- function(x) -sum((x - 0.3)^2)
  prob <- bo_problem(obj, c(0, 0), c(1, 1), cost = 1, budget = 8)
  a <- bo_optimize(prob, policy_ei(), seed = 2, max_evaluations = 1,
                   checkpoint = f, progress = FALSE)
  b <- bo_optimize(prob, policy_ei(), seed = 2, max_evaluations = 1,
                   progress = FALSE)
  expect_match(a$id, "^[0-9a-f]{12}$")
  # a new identity per run, made without R's generator (the runs are equal)
  expect_false(identical(a$id, b$id))
  expect_identical(a$X, b$X)
  expect_output(print(a), paste("run id:", a$id))
  # the file holds run a: another identity is refused, naming the file and
  # the identity (either may be the one that is wrong)
  e <- expect_error(bo_resume(f, id = b$id, progress = FALSE),
                    class = "costbo_error_arg")
  expect_identical(e$arg, c("checkpoint", "id"))
  expect_match(conditionMessage(e), "`checkpoint` and `id` must name the same run",
               fixed = TRUE)
  expect_match(conditionMessage(e), paste0("checkpoint of run ", b$id,
                                           ", not of run ", a$id))
  expect_error(bo_resume(f, id = NA_character_), class = "costbo_error_arg")
  # a problem with the same box, cost and budget but another objective (a
  # fixed bug, or another run's file) goes on with a warning naming the run
  other <- bo_problem(function(x) -sum((x - 0.7)^2), c(0, 0), c(1, 1),
                      cost = 1, budget = 8)
  expect_warning(bo_resume(f, problem = other, max_evaluations = 1,
                           progress = FALSE),
                 paste("not the one of the run .*", a$id),
                 class = "costbo_warning_checkpoint")
  bo_optimize(prob, policy_ei(), seed = 2, max_evaluations = 1,
              checkpoint = f, progress = FALSE) -> a
  # the same code again (a new closure, as after a restart) is accepted
  # silently, and the resumed run keeps its identity
  again <- bo_problem(eval(parse(text = "function(x) -sum((x - 0.3)^2)")),
                      c(0, 0), c(1, 1), cost = 1, budget = 8)
  expect_no_warning(r <- bo_resume(f, problem = again, id = a$id,
                                   max_evaluations = 2, progress = FALSE))
  expect_identical(r$id, a$id)
  expect_identical(sum(r$phase == "bo"), 2L)
})
