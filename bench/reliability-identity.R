# Bit-identity of valid runs across a change of the loop (issue 16).
#
# Runs a fixed set of valid runs and benchmarks and stores what they
# produce: every proposal, value, cost, stop reason, the benchmark's traces
# and the state of R's random-number generator after each (timings left
# out). Run it with the old build to save the reference, then with the new
# build to compare:
#   R_LIBS=<old lib> Rscript bench/reliability-identity.R save /tmp/ref.rds
#   R_LIBS=<new lib> Rscript bench/reliability-identity.R compare /tmp/ref.rds
# It prints one line per case ("identical" or "DIFFERS") and exits with
# status 1 when any case differs.

suppressPackageStartupMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) == 2L, args[1L] %in% c("save", "compare"))

untimed <- function(df) {
  df[, !grepl("time|seconds", names(df)), drop = FALSE]
}
rng_after <- function() get(".Random.seed", envir = globalenv())
# the part of a run that the issue's promise covers
run_record <- function(run) {
  list(frame = untimed(as.data.frame(run)), stop = run$stop_reason,
       spent = run$spent, declined = run$declined, rng = rng_after())
}

cases <- list()
cases$branin_ei <- function() {
  run_record(bo_optimize(test_problem("branin"), policy_ei(), seed = 1,
                         progress = FALSE))
}
cases$measured_eipucc <- function() {
  prob <- test_problem("dropwave", seed = 2, budget = 15)
  run_record(bo_optimize(prob, policy_ei_pu_cc(), seed = 3, progress = FALSE))
}
cases$checkpoint_resume <- function() {
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  prob <- test_problem("branin", budget = 20)
  bo_optimize(prob, policy_ei_pu(), seed = 4, max_evaluations = 3,
              checkpoint = f, progress = FALSE)
  set.seed(99)
  run_record(bo_resume(f, max_evaluations = 8, progress = FALSE))
}
cases$session <- function() {
  prob <- bo_problem(function(x) NA, lower = c(0, 0), upper = c(1, 1),
                     cost = function(x) 1 + x[1], budget = 6)
  f <- function(x) sin(5 * x[1]) + cos(3 * x[2])
  set.seed(5)
  X0 <- matrix(runif(8), 4)
  s <- bo_session(prob, policy_ei_pu(), initial = data.frame(
    x1 = X0[, 1], x2 = X0[, 2], value = apply(X0, 1, f)))
  for (i in 1:4) {
    x <- bo_ask(s)
    s <- bo_tell(s, x, f(as.numeric(x)))
  }
  list(frame = untimed(as.data.frame(s)), rng = rng_after())
}
cases$benchmark <- function() {
  probs <- list(branin = test_problem("branin", budget = 12),
                cvs = test_problem_cvs("hartmann3", cost_set = "cheap",
                                       budget = 2),
                miso = test_problem_miso("goldstein_price", budget = 30))
  pols <- list(bmsei = policy_bmsei(steps = 2, fantasies = 2),
               rollout_rh = policy_rollout("adaptive"),
               kg = policy_kg(), pbgi = policy_pbgi(1e-3),
               ucb_cvs = policy_ucb_cvs(n_samples = 64))
  out <- list()
  for (pn in names(probs)) {
    use <- switch(pn, branin = c("bmsei", "rollout_rh", "kg", "pbgi"),
                  cvs = "ucb_cvs", miso = c("kg", "rollout_rh"))
    bm <- bo_benchmark(probs[pn], pols[use], reps = 2, max_evaluations = 4,
                       progress = FALSE)
    out[[pn]] <- untimed(as.data.frame(bm))
    out[[paste0(pn, "_reps")]] <- untimed(bm$replications)
  }
  out$rng <- rng_after()
  out
}

got <- lapply(names(cases), function(nm) {
  t0 <- proc.time()[["elapsed"]]
  r <- cases[[nm]]()
  cat(sprintf("%-18s ran in %5.1f s\n", nm, proc.time()[["elapsed"]] - t0))
  r
})
names(got) <- names(cases)
if (args[1L] == "save") {
  saveRDS(got, args[2L])
  cat("saved", length(got), "cases to", args[2L], "\n")
} else {
  ref <- readRDS(args[2L])
  # data frames are compared on the reference's columns: a new build may
  # add columns (e.g. cost_valid), but must not change any old one
  common <- function(new, old) {
    if (is.data.frame(old) && is.data.frame(new) &&
        all(names(old) %in% names(new))) {
      return(new[, names(old), drop = FALSE])
    }
    if (is.list(old) && is.list(new) && !is.data.frame(old)) {
      for (k in names(old)) {
        if (is.list(old[[k]])) new[[k]] <- common(new[[k]], old[[k]])
      }
    }
    new
  }
  same <- vapply(names(ref), function(nm) {
    identical(ref[[nm]], common(got[[nm]], ref[[nm]]))
  }, logical(1))
  for (nm in names(ref)) {
    cat(sprintf("%-18s %s\n", nm, if (same[[nm]]) "identical" else "DIFFERS"))
  }
  if (!all(same)) quit(status = 1L)
}
