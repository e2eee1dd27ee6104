# Fault scenarios of the reliability issue 39, as counts: run with one build
# and then another to compare them.
#   R_LIBS=<lib> Rscript bench/faults.R [trials]
# 1. interrupt_workers: a run on a multisession plan with 2 workers is
#    interrupted during a slow proposal (1.5 s) while an evaluation that
#    takes 0.05 s is pending, then resumed; the workers log every
#    evaluation, and a trial counts when a point was evaluated twice (paid
#    again by bo_resume()). `trials` runs (default 8), seeds 1, 2, ...
# 2. partial_cost: seven cost-aware policies with on_error = "skip" on a
#    problem whose known cost fails (an error) where x1 > 0.8 and x2 > 0.5;
#    a policy counts when its run ends before the budget is spent (stop code
#    other than "budget") or the call fails.
# 3. other_checkpoint: a checkpoint resumed with a problem whose objective
#    is another one (same box, cost and budget); counts when it resumes
#    without an error or a warning.
suppressPackageStartupMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
trials <- if (length(args)) as.integer(args[1L]) else 8L
cat(sprintf("costbo %s, build %s\n", utils::packageVersion("costbo"),
            substr(costbo_build()$source_hash, 1L, 8L)))

interrupt_trial <- function(seed) {
  log <- tempfile()
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(c(log, f)))
  calls <- 0L
  price <- function(x) {
    calls <<- calls + 1L
    if (calls == 16L) {
      Sys.sleep(1.5)
      signalCondition(structure(class = c("interrupt", "condition"),
                                list(message = "", call = NULL)))
    }
    1 + x[1]
  }
  obj <- function(x) {
    Sys.sleep(0.05)
    cat(sprintf("%.17g %.17g\n", x[1], x[2]), file = log, append = TRUE)
    -sum((x - 0.4)^2)
  }
  environment(obj) <- list2env(list(log = log), parent = globalenv())
  prob <- bo_problem(obj, c(0, 0), c(1, 1), cost = price, budget = 12)
  part <- bo_optimize(prob, policy_ei(), workers = 2, seed = seed,
                      progress = FALSE, checkpoint = f)
  calls <- -1e6L
  res <- suppressWarnings(bo_resume(f, problem = prob, progress = FALSE))
  lines <- readLines(log)
  c(interrupted = identical(part$stop_code, "interrupted"),
    paid_twice = anyDuplicated(lines) > 0L)
}

old <- future::plan(future::multisession, workers = 2)
t0 <- proc.time()[["elapsed"]]
r <- vapply(seq_len(trials), interrupt_trial, logical(2))
future::plan(old)
cat(sprintf(paste("interrupt_workers: %d of %d interrupted trials paid for",
                  "a point twice (%.0f s)\n"), sum(r["paid_twice", ]),
            sum(r["interrupted", ]), proc.time()[["elapsed"]] - t0))

partial <- function(x) {
  if (x[1] > 0.8 && x[2] > 0.5) stop("no price for this setting")
  1 + x[1]
}
prob <- bo_problem(function(x) -sum((x - 0.9)^2), c(0, 0), c(1, 1),
                   cost = partial, budget = 15)
pols <- list(ei_pu = policy_ei_pu(), ei_pu_cc = policy_ei_pu_cc(),
             q1 = policy_q1(), pbgi = policy_pbgi(),
             rollout = policy_rollout(horizon = 2, n_samples = 16),
             bmsei = policy_bmsei(steps = 2, fantasies = 3),
             kg = policy_kg(n_nodes = 4, n_cand = 20))
ended <- vapply(names(pols), function(nm) {
  run <- tryCatch(suppressWarnings(bo_optimize(prob, pols[[nm]], seed = 1,
                                               progress = FALSE,
                                               on_error = "skip")),
                  error = function(e) e)
  code <- if (inherits(run, "error")) "error" else run$stop_code
  cat(sprintf("  %-8s %s\n", nm, code))
  !identical(code, "budget")
}, NA)
cat(sprintf(paste("partial_cost: %d of %d cost-aware policies ended before",
                  "the budget\n"), sum(ended), length(ended)))

f <- tempfile(fileext = ".rds")
a <- bo_problem(function(x) -sum((x - 0.3)^2), c(0, 0), c(1, 1), cost = 1,
                budget = 8)
b <- bo_problem(function(x) -sum((x - 0.7)^2), c(0, 0), c(1, 1), cost = 1,
                budget = 8)
invisible(bo_optimize(a, policy_ei(), seed = 1, max_evaluations = 1, checkpoint = f,
            progress = FALSE))
warned <- tryCatch({
  bo_resume(f, problem = b, max_evaluations = 2, progress = FALSE)
  FALSE
}, warning = function(w) TRUE, error = function(e) TRUE)
unlink(f)
cat(sprintf("other_checkpoint: %d of 1 resumed silently\n",
            as.integer(!warned)))
