bench_problems <- function() {
  list(linear = known_cost_problem(budget = 6),
       measured = function(r) test_problem("dropwave", seed = r,
                                           budget = 3 + r))
}
bench_policies <- function() list(EI = policy_ei(), `EI-PU` = policy_ei_pu())
# The tests of the benchmark's bookkeeping run its problems with a free
# design (charge_initial = FALSE, the papers' protocol): charged, the design
# of the linear problem (costs up to 21) would not fit in its budget of 6
# and its replications would hold no evaluation to keep track of.

test_that("the regret curve is read off a hand-made run correctly", {
  rec <- list(problem = "p", policy = "q", rep = 1L,
              trace = data.frame(
                cumulative_cost = c(0, 0, 1, 2.5, 2.5, 4),
                value = c(1, 3, NA, 5, 4, 7),
                status = c("ok", "ok", "error", "ok", "ok", "ok"),
                regret = c(9, 7, 7, 5, 5, 3)))
  grid <- c(0, 0.5, 1, 2, 2.5, 3, 4, 5)
  cv <- benchmark_curve(rec, grid)
  expect_equal(cv$best_value, c(3, 3, 3, 3, 5, 5, 7, 7))
  expect_equal(cv$regret, c(7, 7, 7, 7, 5, 5, 3, 3))
  expect_equal(cv$log10_regret, log10(c(7, 7, 7, 7, 5, 5, 3, 3)))
  # charged initial design: nothing is known before the first evaluation
  rec$trace$cumulative_cost <- rec$trace$cumulative_cost + 0.7
  cv <- benchmark_curve(rec, grid)
  expect_equal(cv$best_value, c(NA, NA, 3, 3, 3, 3, 5, 7))
  # regrets at or below zero are floored at 1e-10 on the log scale
  rec$trace$regret <- c(1, 1, 1, 0, 0, -1)
  cv <- benchmark_curve(rec, grid)
  expect_equal(cv$log10_regret, c(NA, NA, 0, 0, 0, 0, -10, -10))
})

test_that("the curves match each run's own record", {
  bm <- bo_benchmark(bench_problems(), bench_policies(), reps = 2,
                     n_init = 4, n_grid = 7, charge_initial = FALSE,
                     progress = FALSE)
  df <- as.data.frame(bm)
  expect_equal(nrow(df), 2 * 2 * 2 * 7)
  expect_true(all(bm$replications$status == "ok"))
  # rebuild replication 2 of EI-PU on the measured problem by hand
  streams <- replication_streams(1L, 2L)
  old <- RNGkind()[1L]
  RNGkind("L'Ecuyer-CMRG")
  assign(".Random.seed", streams[[2L]], envir = globalenv())
  run <- bo_optimize(test_problem("dropwave", seed = 2, budget = 5),
                     policy_ei_pu(),
                     n_init = 4, charge_initial = FALSE, progress = FALSE)
  RNGkind(old)
  rd <- as.data.frame(run)
  grid <- seq(0, 5, length.out = 7)
  best <- vapply(grid, function(g) {
    max(rd$value[rd$status == "ok" & rd$cumulative_cost <= g])
  }, 0)
  mine <- df[df$problem == "measured" & df$policy == "EI-PU" & df$rep == 2, ]
  expect_equal(mine$cost, grid)
  expect_equal(mine$best_value, best)
  expect_equal(mine$regret, 1 - best)
  # the policies of one replication share their initial design
  ev <- bm$evaluations
  first <- function(q) {
    ev$value[ev$problem == "linear" & ev$policy == q & ev$rep == 1][1:4]
  }
  expect_equal(first("EI"), first("EI-PU"))
})

test_that("model settings reach every run", {
  fixed <- list(estimate = "fixed", lengthscale = 0.3, outputscale = 1,
                noise = 1e-6, mean = 0)
  # a free design: charged, the design alone would spend the budget of 20
  # and no run would reach the model
  bm <- bo_benchmark(list(linear = known_cost_problem(budget = 20)),
                     list(EI = policy_ei()), reps = 2, n_init = 4,
                     gp_args = fixed, charge_initial = FALSE,
                     progress = FALSE)
  streams <- replication_streams(1L, 2L)
  old <- RNGkind()[1L]
  RNGkind("L'Ecuyer-CMRG")
  assign(".Random.seed", streams[[2L]], envir = globalenv())
  run <- bo_optimize(known_cost_problem(budget = 20), policy_ei(), n_init = 4,
                     gp_args = fixed, charge_initial = FALSE,
                     progress = FALSE)
  RNGkind(old)
  ev <- bm$evaluations[bm$evaluations$rep == 2, ]
  expect_equal(ev$value, as.data.frame(run)$value)
  # the evaluations keep the points, in the run's order
  rd <- as.data.frame(run)
  expect_equal(as.matrix(ev[, "x1", drop = FALSE]),
               as.matrix(rd[, "x1", drop = FALSE]), ignore_attr = TRUE)
  # and the default model proposes other points
  dflt <- bo_benchmark(list(linear = known_cost_problem(budget = 20)),
                       list(EI = policy_ei()), reps = 2, n_init = 4,
                       charge_initial = FALSE, progress = FALSE)$evaluations
  expect_false(isTRUE(all.equal(ev$value, dflt$value[dflt$rep == 2])))
  expect_error(bo_benchmark(known_cost_problem(budget = 6), policy_ei(),
                            reps = 1, gp_args = list(bogus = 1)),
               class = "costbo_error_arg")
})

test_that("results do not depend on the back end, the workers or the batch", {
  skip_on_cran()
  probs <- bench_problems()
  pols <- bench_policies()
  set.seed(11)
  u <- runif(1)
  set.seed(11)
  seq_bm <- bo_benchmark(probs, pols, reps = 3, n_init = 4,
                         charge_initial = FALSE, progress = FALSE)
  expect_identical(runif(1), u) # the caller's generator is untouched
  ref <- as.data.frame(seq_bm)
  cl <- parallel::makePSOCKcluster(2L)
  on.exit(parallel::stopCluster(cl), add = TRUE)
  par_bm <- bo_benchmark(probs, pols, reps = 3, n_init = 4,
                         charge_initial = FALSE, backend = "parallel",
                         cluster = cl, progress = FALSE)
  expect_identical(as.data.frame(par_bm), ref)
  if (.Platform$OS.type == "unix") {
    fork_bm <- bo_benchmark(probs, pols, reps = 3, n_init = 4,
                            charge_initial = FALSE, backend = "parallel",
                            processes = 2, progress = FALSE)
    expect_identical(as.data.frame(fork_bm), ref)
  }
  # replications 2 and 3 run on their own, then joined with replication 1
  part <- bo_benchmark(probs, pols, reps = 2:3, n_init = 4,
                       charge_initial = FALSE, progress = FALSE)
  one <- bo_benchmark(probs, pols, reps = 1, n_init = 4,
                      charge_initial = FALSE, progress = FALSE)
  expect_identical(as.data.frame(c(one, part)), ref)
  expect_error(c(one, one), "no replication in common")
})

test_that("rep_ids runs chosen replications exactly as a full run does", {
  probs <- list(branin = test_problem("branin", budget = 3))
  pols <- list(EI = policy_ei())
  # a record without its timing
  untimed <- function(r) r[setdiff(names(r), "seconds")]
  # the study scripts' protocol (a free design, the rule "stop"), which
  # benchmark_task() replays below
  full <- bo_benchmark(probs, pols, reps = 12, n_init = 3,
                       charge_initial = FALSE, budget_rule = "stop",
                       progress = FALSE)
  expect_true(all(full$replications$status == "ok"))
  two <- bo_benchmark(probs, pols, rep_ids = c(12, 7), n_init = 3,
                      charge_initial = FALSE, budget_rule = "stop",
                      progress = FALSE)
  expect_identical(two$tasks$rep, c(12L, 7L))
  expect_identical(two$reps, c(12L, 7L))
  for (k in c(7L, 12L)) {
    mine <- two$records[[match(k, two$tasks$rep)]]
    theirs <- full$records[[k]]
    expect_identical(mine$trace, theirs$trace)
    expect_identical(mine$x, theirs$x)
    expect_identical(untimed(mine), untimed(theirs))
  }
  # replication 7 alone, and as the study scripts replay a record through
  # benchmark_task() on the replication's own stream
  one <- bo_benchmark(probs, pols, rep_ids = 7, n_init = 3,
                      charge_initial = FALSE, budget_rule = "stop",
                      progress = FALSE)
  expect_identical(one$tasks$rep, 7L)
  expect_identical(untimed(one$records[[1L]]), untimed(full$records[[7L]]))
  task <- data.frame(problem = "branin", policy = "EI", rep = 7L,
                     stringsAsFactors = FALSE)
  direct <- benchmark_task(task, probs, pols,
                           replication_streams(1L, 7L)[[7L]],
                           list(n_init = 3L, max_evaluations = NULL,
                                charge_initial = FALSE, model = list(),
                                virtual_workers = NULL,
                                budget_rule = "stop"))
  expect_identical(untimed(one$records[[1L]]), untimed(direct))
  # a stream does not depend on which others are kept
  expect_identical(replication_streams(1L, 12L, keep = c(12L, 7L)),
                   replication_streams(1L, 12L)[c(12L, 7L)])
  # and c() joins such benchmarks with the rest of the run
  rest <- bo_benchmark(probs, pols, reps = setdiff(1:12, c(7, 12)),
                       n_init = 3, charge_initial = FALSE,
                       budget_rule = "stop", progress = FALSE)
  joined <- c(rest, two)
  expect_identical(joined$reps, 1:12)
  expect_identical(as.data.frame(joined), as.data.frame(full))
  expect_error(c(two, one), "no replication in common")
})

test_that("rep_ids is checked before anything runs", {
  pr <- list(p = known_cost_problem(budget = 3))
  pol <- list(EI = policy_ei())
  # a problem that must never be built
  never <- list(p = function(r) stop("ran"))
  for (bad in list(0, NA, NA_real_, c(3, 3), 1.5, -2, 1e6 + 1, Inf,
                   numeric(), "7", list(7))) {
    expect_error(bo_benchmark(never, pol, rep_ids = bad, progress = FALSE),
                 "`rep_ids` must be", class = "costbo_error_arg")
  }
  err <- expect_error(bo_benchmark(never, pol, reps = 3, rep_ids = 7,
                                   progress = FALSE),
                      class = "costbo_error_arg")
  expect_match(conditionMessage(err), "`rep_ids`", fixed = TRUE)
  expect_match(conditionMessage(err), "`reps`", fixed = TRUE)
  expect_identical(err$arg, "rep_ids")
  expect_identical(err$call[[1L]], as.name("bo_benchmark"))
  # `reps` is as it was: a single number is a count
  bm <- bo_benchmark(pr, pol, reps = 2, n_init = 3, max_evaluations = 3,
                     progress = FALSE)
  expect_identical(bm$tasks$rep, 1:2)
})

test_that("a future multisession plan gives the same results", {
  skip_on_cran()
  skip_if_not_installed("future.apply")
  skip_if_not_installed("future")
  probs <- bench_problems()
  pols <- bench_policies()
  ref <- as.data.frame(bo_benchmark(probs, pols, reps = 2, n_init = 4,
                                    charge_initial = FALSE,
                                    progress = FALSE))
  old <- future::plan("multisession", workers = 2L)
  on.exit(future::plan(old), add = TRUE)
  fut <- bo_benchmark(probs, pols, reps = 2, n_init = 4, backend = "future",
                      charge_initial = FALSE, progress = FALSE)
  expect_identical(as.data.frame(fut), ref)
})

test_that("the future back end leaves the caller's generator as it was (issue 39)", {
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  old <- future::plan("sequential")
  on.exit(future::plan(old), add = TRUE)
  set.seed(5)
  before <- get(".Random.seed", envir = globalenv())
  bo_benchmark(list(linear = known_cost_problem(budget = 4)),
               list(EI = policy_ei()), reps = 1, n_init = 3,
               backend = "future", charge_initial = FALSE, progress = FALSE)
  expect_identical(get(".Random.seed", envir = globalenv()), before)
  expect_identical(RNGkind()[1L], "Mersenne-Twister")
})

test_that("a failing replication is reported with its error, not lost", {
  flaky <- function(r) {
    pr <- known_cost_problem(budget = 20)
    f <- pr$objective
    n <- 0L
    pr$objective <- function(x) {
      n <<- n + 1L
      if (r == 2L && n == 5L) stop("the instrument is offline")
      f(x)
    }
    pr
  }
  broken <- function(r) stop("no such data set")
  # a free design, so that replication 2 reaches its fifth evaluation (the
  # charged design of the linear problem spends its budget of 20 in two)
  # the run that fails says so as it ends
  expect_warning(
    bm <- bo_benchmark(list(flaky = flaky, broken = broken),
                       list(EI = policy_ei()), reps = 2, n_init = 4,
                       charge_initial = FALSE, progress = FALSE),
    "the instrument is offline", class = "costbo_warning_failed")
  reps <- bm$replications
  expect_equal(reps$status, c("ok", "failed", "failed", "failed"))
  expect_match(reps$error[2], "the instrument is offline")
  expect_match(reps$error[3], "no such data set")
  # the failed run keeps its initial design and the failure
  ev <- bm$evaluations
  mine <- ev[ev$problem == "flaky" & ev$rep == 2, ]
  expect_equal(mine$status, c(rep("ok", 4), "error"))
  # only the successful replication makes curves
  df <- as.data.frame(bm)
  expect_equal(unique(df$rep), 1L)
  expect_equal(unique(df$problem), "flaky")
  expect_output(print(bm), "instrument is offline")
  s <- summary(bm)
  expect_equal(s$failed, c(1L, 2L))
  expect_equal(s$n, c(1L, 0L))
})

test_that("an interrupt keeps the finished replications", {
  stopper <- function(r) {
    pr <- known_cost_problem(budget = 6)
    f <- pr$objective
    pr$objective <- function(x) {
      if (r == 2L) {
        signalCondition(structure(class = c("interrupt", "condition"),
                                  list(message = "", call = NULL)))
      }
      f(x)
    }
    pr
  }
  expect_warning(
    bm <- bo_benchmark(list(p = stopper), list(EI = policy_ei()), reps = 3,
                       n_init = 4, charge_initial = FALSE, progress = FALSE),
    "interrupted: 1 of 3", class = "costbo_warning_interrupted")
  expect_equal(bm$replications$status, c("ok", "interrupted", "not run"))
  expect_equal(unique(as.data.frame(bm)$rep), 1L)
})

test_that("summary() gives t-intervals of the final regret", {
  bm <- bo_benchmark(bench_problems(), bench_policies(), reps = 3,
                     n_init = 4, charge_initial = FALSE, progress = FALSE)
  s <- summary(bm, level = 0.9)
  df <- as.data.frame(bm)
  last <- df[df$problem == "linear" & df$policy == "EI" & df$cost == 6, ]
  tt <- stats::t.test(last$regret, conf.level = 0.9)
  row <- s[s$problem == "linear" & s$policy == "EI", ]
  expect_equal(row$mean, unname(tt$estimate))
  expect_equal(c(row$lower, row$upper), as.numeric(tt$conf.int))
  expect_equal(row$median, stats::median(last$regret))
  expect_equal(row$mean_log10_regret, mean(log10(last$regret)))
  expect_output(print(s), "Final simple regret")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  # plot() returns the curves it drew
  cv <- expect_invisible(plot(bm))
  at6 <- cv$problem == "linear" & cv$policy == "EI" & cv$cost == 6
  expect_identical(cv$measure[at6], "log10_regret")
  expect_equal(cv$mean[at6], mean(log10(last$regret)), tolerance = 1e-12)
  bv <- plot(bm, y = "best_value", problems = "linear")
  expect_identical(unique(bv$problem), "linear")
  expect_equal(bv$mean[bv$policy == "EI" & bv$cost == 6],
               mean(last$best_value), tolerance = 1e-12)
  expect_error(plot(bm, problems = "nope"), "problems")
})

test_that("the GP settings reach the runs and the policies' choices are kept", {
  # fixed hyperparameters as in paper 003's protocol, and the control set
  # each evaluation played
  model <- list(kernel = "se", estimate = "fixed", lengthscale = 0.1,
                outputscale = 1, noise = 1e-4)
  prob <- list(cvs = test_problem_cvs("hartmann3", cost_set = "moderate",
                                      budget = 0.5))
  pol <- list(ETC = policy_etc(plays = 2, n_samples = 16, n_raw = 4,
                               n_starts = 1))
  # and its free design
  bm <- bo_benchmark(prob, pol, reps = 1, n_init = 3, gp_args = model,
                     charge_initial = FALSE, progress = FALSE)
  streams <- replication_streams(1L, 1L)
  old <- RNGkind()[1L]
  RNGkind("L'Ecuyer-CMRG")
  assign(".Random.seed", streams[[1L]], envir = globalenv())
  run <- bo_optimize(prob$cvs, pol$ETC, n_init = 3, gp_args = model,
                     charge_initial = FALSE, progress = FALSE)
  RNGkind(old)
  rd <- as.data.frame(run)
  ev <- bm$evaluations
  expect_equal(ev$value, rd$value)
  expect_equal(ev$phase, rd$phase)
  expect_equal(ev$control_set, as.integer(rd$control_set))
  expect_true(all(is.na(ev$h)))
  ok <- rd$status == "ok" & rd$within_budget
  expect_equal(bm$replications$regret, utils::tail(rd$simple_regret[ok], 1))
  # the rolling-horizon rollout records its horizon at every step
  bm <- bo_benchmark(list(b = test_problem("branin", budget = 2)),
                     list(RH = policy_kg_rollout(n_cand = 20)),
                     reps = 1, n_init = 4, charge_initial = FALSE,
                     progress = FALSE)
  ev <- bm$evaluations
  expect_equal(ev$phase, rep(c("initial", "bo"), c(4, 2)))
  expect_true(all(is.na(ev$h[1:4])) && all(ev$h[5:6] >= 1))
  expect_error(bo_benchmark(prob, pol, gp_args = 1), "`gp_args` must be")
})

test_that("bo_benchmark() checks its arguments", {
  probs <- bench_problems()
  pols <- bench_policies()
  expect_error(bo_benchmark(list(1), pols), "`problems` must be")
  expect_error(bo_benchmark(unname(probs), pols), "distinct non-empty names")
  expect_error(bo_benchmark(probs, list(a = 1)), "`policies` must be")
  expect_error(bo_benchmark(probs, pols, reps = 0), "`reps` must be")
  expect_error(bo_benchmark(probs, pols, reps = c(1, 1)), "`reps` must be")
  expect_error(bo_benchmark(probs, pols, backend = "mpi"), "`backend` must be")
  expect_error(bo_benchmark(probs, pols, cluster = 3), "`cluster` must be")
  expect_error(bo_benchmark(probs, pols, n_grid = 1), "`n_grid` must be")
  expect_error(bo_benchmark(probs, pols, processes = 0), "`processes` must be")
  # virtual workers are capped before anything runs
  expect_error(bo_benchmark(probs, pols, virtual_workers = 65),
               "`virtual_workers`.*64", class = "costbo_error_arg")
  # the former name still works, with a warning, and not with the new one
  expect_warning(expect_error(bo_benchmark(probs, pols, workers = 0),
                              "`workers` \\(now `processes`\\) must be"),
                 class = "costbo_warning_deprecated")
  expect_error(bo_benchmark(probs, pols, workers = 2, processes = 2),
               "`workers`", class = "costbo_error_arg")
  expect_error(summary(bo_benchmark(probs$linear, pols$EI, reps = 1,
                                    n_init = 4, progress = FALSE),
                       level = 2), "`level` must be")
})

test_that("with several information sources only the objective counts", {
  prob <- test_problem_miso("goldstein_price")
  bm <- bo_benchmark(list(gp = prob), list(KG = policy_kg(n_cand = 10)),
                     reps = 1, n_init = 3, max_evaluations = 3, n_grid = 5,
                     progress = FALSE)
  ev <- bm$evaluations
  expect_setequal(unique(ev$source), 0:2)
  df <- as.data.frame(bm)
  final <- df$best_value[df$cost == max(df$cost)]
  within <- ev$cumulative_cost <= prob$budget
  expect_equal(final, max(ev$value[ev$source == 0 & ev$status == "ok" &
                                     within]))
  expect_equal(bm$replications$best_value, final)
})

test_that("benchmarks whose records lack later columns still join", {
  probs <- list(linear = known_cost_problem(budget = 6))
  # a free design, so that each record has evaluations (see bench_problems())
  a <- bo_benchmark(probs, list(EI = policy_ei()), reps = 1, n_init = 4,
                    charge_initial = FALSE, progress = FALSE)
  b <- bo_benchmark(probs, list(EI = policy_ei()), reps = 2:3, n_init = 4,
                    charge_initial = FALSE, progress = FALSE)
  for (i in seq_along(a$records)) {
    a$records[[i]]$trace <- a$records[[i]]$trace[, c("cumulative_cost",
                                                     "value", "status",
                                                     "regret")]
  }
  ab <- c(a, b)
  expect_true(all(is.na(ab$evaluations$phase[ab$evaluations$rep == 1])))
  expect_equal(sort(unique(as.data.frame(ab)$rep)), 1:3)
  expect_equal(ab$replications$status, rep("ok", 3))
})

test_that("evaluations hold the points, padded across dimensions", {
  probs <- list(b2 = test_problem("branin", budget = 2),
                h3 = test_problem("hartmann3", budget = 2))
  bm <- bo_benchmark(probs, list(EI = policy_ei()), reps = 1, n_init = 3,
                     progress = FALSE)
  ev <- bm$evaluations
  expect_true(all(c("x1", "x2", "x3") %in% names(ev)))
  b2 <- ev[ev$problem == "b2", ]
  h3 <- ev[ev$problem == "h3", ]
  expect_true(all(is.na(b2$x3)))
  expect_false(anyNA(h3[, c("x1", "x2", "x3")]))
  f2 <- apply(as.matrix(b2[, c("x1", "x2")]), 1L, probs$b2$objective)
  f3 <- apply(as.matrix(h3[, c("x1", "x2", "x3")]), 1L, probs$h3$objective)
  expect_equal(b2$value, unname(f2), tolerance = 1e-12)
  expect_equal(h3$value, unname(f3), tolerance = 1e-12)
})

test_that("a benchmark records the build that made it, and c() never mixes builds", {
  b <- costbo_build()
  expect_identical(b$costbo, as.character(utils::packageVersion("costbo")))
  # installed through configure: the hash of the sources it was built from
  expect_match(b$source_hash, "^[0-9a-f]{32}$")
  src <- file.path("..", "..", "00_pkg_src", "costbo")
  if (dir.exists(file.path(src, "src"))) {
    # R CMD check: recompute the hash from the checked sources, independently
    old <- setwd(src)
    f <- sort(c(list.files("R", pattern = "[.][RrSsq]$", full.names = TRUE),
                list.files("src", pattern = "([.][ch]|^Makevars.*)$",
                           full.names = TRUE)), method = "radix")
    code <- vapply(f, function(p) {
      x <- readLines(p, warn = FALSE)
      if (startsWith(p, "R/")) x <- x[!startsWith(trimws(x), "#'")]
      tmp <- tempfile()
      writeLines(x, tmp)
      unname(tools::md5sum(tmp))
    }, "")
    listing <- paste(f, code)
    setwd(old)
    lst <- tempfile()
    writeLines(listing, lst)
    expect_identical(b$source_hash, unname(tools::md5sum(lst)))
  }
  pr <- list(linear = known_cost_problem(budget = 3))
  bm1 <- bo_benchmark(pr, list(EI = policy_ei()), reps = 1, n_init = 3,
                      progress = FALSE)
  bm2 <- bo_benchmark(pr, list(EI = policy_ei()), reps = 2:3, n_init = 3,
                      progress = FALSE)
  expect_identical(bm1$provenance$source_hash, b$source_hash)
  expect_identical(bm1$provenance$costbo, b$costbo)
  expect_identical(bm1$provenance$call[[1L]], as.name("bo_benchmark"))
  expect_output(print(bm1), b$source_hash, fixed = TRUE)
  both <- c(bm1, bm2)
  expect_identical(both$provenance$source_hash, b$source_hash)
  expect_length(both$provenance$call, 2L)
  other <- bm2
  other$provenance$source_hash <- strrep("0", 32L)
  expect_error(c(bm1, other), class = "costbo_error_arg")
  expect_error(c(bm1, other), "one build of costbo")
})

test_that("a minimized problem's curves and tables are in its own direction", {
  loss <- function(x) 1 + sum((x - c(0.3, 0.6))^2)
  probs <- list(
    lo = bo_problem(loss, c(0, 0), c(1, 1), cost = function(x) 1 + x[1],
                    budget = 8, optimum = 1, maximize = FALSE),
    hi = bo_problem(function(x) -loss(x), c(0, 0), c(1, 1),
                    cost = function(x) 1 + x[1], budget = 8, optimum = -1),
    lo_unknown = bo_problem(loss, c(0, 0), c(1, 1), cost = 1, budget = 6,
                            maximize = FALSE))
  bm <- bo_benchmark(probs, list(EI = policy_ei(), R = policy_random()),
                     reps = 2, n_init = 3, n_grid = 9, progress = FALSE)
  df <- as.data.frame(bm)
  lo <- df[df$problem == "lo", ]
  hi <- df[df$problem == "hi", ]
  expect_identical(lo$best_value, -hi$best_value)
  expect_identical(lo$regret, hi$regret)
  expect_true(all(lo$regret >= 0, na.rm = TRUE))
  # by hand from the evaluations: the smallest loss paid for at each cost
  ev <- bm$evaluations
  e <- ev[ev$problem == "lo" & ev$policy == "EI" & ev$rep == 2, ]
  expect_identical(e$value, apply(cbind(e$x1, e$x2), 1L, loss))
  grid <- seq(0, 8, length.out = 9)
  best <- vapply(grid, function(g) {
    v <- e$value[e$status == "ok" & e$cumulative_cost <= g]
    if (length(v)) min(v) else NA_real_
  }, 0)
  mine <- lo[lo$policy == "EI" & lo$rep == 2, ]
  expect_identical(mine$best_value, best)
  expect_equal(mine$regret, best - 1, tolerance = 1e-15)
  reps <- bm$replications
  r <- reps[reps$problem == "lo" & reps$policy == "EI" & reps$rep == 2, ]
  expect_identical(r$best_value, min(e$value))
  # the summary's best value (no optimum known) is the mean smallest loss
  s <- summary(bm)
  su <- s[s$problem == "lo_unknown" & s$policy == "EI", ]
  expect_identical(su$measure, "best_value")
  fin <- reps[reps$problem == "lo_unknown" & reps$policy == "EI", ]
  expect_equal(su$mean, mean(fin$best_value), tolerance = 1e-15)
  expect_true(all(fin$best_value >= 1))
  # records of minimized problems say so, the others are as they were
  expect_false(bm$records[[1L]]$maximize)
  expect_null(bm$records[[which(bm$tasks$problem == "hi")[1L]]]$maximize)
})
