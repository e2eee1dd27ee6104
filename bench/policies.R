# Time of one proposal of every policy costbo exports.
#
# Run from the repository root after installing costbo:
#   Rscript bench/policies.R
# or as part of every benchmark with bench/run.R, which sources this file
# and calls bench_policies() (it returns the rows of run.R's summary table).
#
# For each policy, at n = 20, 50, 100 evaluated points and d = 2 (Branin)
# and d = 6 (Hartmann-6), both with a measured cosine cost (so cost-aware
# policies model the log cost by a GP): a bo_session() is made from the
# points, its models are fitted as bo_ask() fits them, and the policy's
# propose(state) (the protocol of ?bo_policy, which is what bo_ask() calls
# after fitting) is timed: CPU seconds, the smallest of 3 runs when one run
# takes under a second, else one run. B-MS-EI is timed in its path variant,
# and in its full tree (fantasies 4, 4, 2) only at d = 2. The control-set
# policies run on test_problem_cvs("hartmann3") (d = 3) with the paper's
# fixed GP. policy_ei is compared with DiceOptim::max_EI() (default
# settings) on a DiceKriging Matern 5/2 model of the same points, when
# DiceOptim is installed (install.packages("DiceOptim")).
#
# BENCH_QUICK=1: n = 20 and 50 at d = 2, n = 20 at d = 6; the CMDP rollout
# (horizon 4) and the full B-MS-EI tree only at n = 20.

source("bench/common.R")
suppressPackageStartupMessages(library(costbo))

# CPU seconds of f(): one run, or the smallest of `reps` when one run is
# under a second (each then repeating f() to last at least 0.1 s, for the
# clock's resolution).
policy_time <- function(f, reps = 3L) {
  t <- cpu_time(f(), 1L)
  if (t >= 1) return(t)
  k <- max(1L, ceiling(0.1 / max(t, 1e-3)))
  min(t, cpu_time(for (i in seq_len(k)) f(), reps) / k)
}

policy_list <- function(d, n, quick) {
  pols <- list(
    ei = policy_ei(), ei_pu = policy_ei_pu(), ei_pu_cc = policy_ei_pu_cc(),
    q1 = policy_q1(), ucb = policy_ucb(), pbgi = policy_pbgi(),
    pbgi_d = policy_pbgi_d(), random = policy_random(),
    "bmsei (path)" = policy_bmsei(path = TRUE))
  big <- quick && n > 20
  if (d == 2 && !big) pols[["bmsei (full tree 4, 4, 2)"]] <- policy_bmsei()
  if (!big) pols[["rollout (horizon 4)"]] <- policy_rollout()
  pols[["rollout (adaptive)"]] <- policy_rollout(horizon = "adaptive")
  pols$kg <- policy_kg()
  pols
}

# Evaluated points of a problem with a measured cost, as bo_session()'s
# `initial`.
initial_points <- function(prob, n) {
  d <- prob$d
  X <- sweep(sweep(sobol_points(n, d), 2, prob$upper - prob$lower, "*"), 2,
             prob$lower, "+")
  ev <- lapply(seq_len(n), function(i) prob$objective(X[i, ]))
  value <- vapply(ev, function(e) if (is.list(e)) e$value else e, 0)
  init <- data.frame(X, value = value)
  if (is.list(ev[[1]])) init$cost <- vapply(ev, `[[`, 0, "cost")
  names(init)[seq_len(d)] <- paste0("x", seq_len(d))
  init
}

# CPU seconds of one proposal of `policy` on a session made from `init`.
time_proposal <- function(prob, policy, init, model = list()) {
  s <- bo_session(prob, policy, initial = init, gp_args = model)
  set.seed(7)
  s <- costbo:::state_fit(s)  # what bo_ask() does before proposing
  policy_time(function() s$policy$propose(s))
}

bench_policies <- function(quick = FALSE) {
  out <- list()
  add <- function(...) out[[length(out) + 1L]] <<- bench_row("policies", ...)
  cat("== One proposal of every policy (models fitted), CPU seconds\n")
  cat(paste(bench_header("DiceOptim"), collapse = "\n"), "\n")
  have_peer <- requireNamespace("DiceOptim", quietly = TRUE)
  cells <- if (quick) list(c(2, 20), c(2, 50), c(6, 20)) else
    list(c(2, 20), c(2, 50), c(2, 100), c(6, 20), c(6, 50), c(6, 100))
  for (cell in cells) {
    d <- cell[1]
    n <- cell[2]
    prob <- test_problem(if (d == 2) "branin" else "hartmann6",
                         cost_family = "cosine")
    set.seed(1)
    init <- initial_points(prob, n)
    case <- sprintf("n = %d, d = %d", n, d)
    pols <- policy_list(d, n, quick)
    times <- numeric(0)
    for (nm in names(pols)) {
      t <- time_proposal(prob, pols[[nm]], init)
      times[nm] <- t
      if (nm == "ei") {
        peer_s <- NA_real_
        if (have_peer) {
          m <- DiceKriging::km(design = as.matrix(init[seq_len(d)]),
                               response = init$value, covtype = "matern5_2",
                               control = list(trace = FALSE))
          set.seed(5)
          peer_s <- policy_time(function() suppressWarnings({
            DiceOptim::max_EI(m, plugin = max(init$value), lower = prob$lower,
                              upper = prob$upper, minimization = FALSE,
                              control = list(print.level = 0))
          }))
        }
        add(sprintf("policy_ei proposal, %s", case), t, "DiceOptim::max_EI",
            peer_s, note = if (have_peer) "peer: default settings" else
              "DiceOptim not installed")
      } else {
        add(sprintf("policy_%s proposal, %s", nm, case), t)
      }
    }
    cat(sprintf("\n%s (%s, measured cosine cost):\n", case, prob$name))
    print(data.frame(policy = names(times), seconds = times, row.names = NULL),
          digits = 3, row.names = FALSE)
  }

  # control-set policies at their native dimension
  prob <- test_problem_cvs("hartmann3")
  model <- list(kernel = "se", estimate = "fixed", lengthscale = 0.1,
                outputscale = 1, noise = 1e-4)
  cvs <- list(ucb_cvs = policy_ucb_cvs(), etc = policy_etc(),
              ucb_psq = policy_ucb_psq(), ts_psq = policy_ts_psq())
  for (n in if (quick) 20 else c(20, 50, 100)) {
    set.seed(1)
    init <- initial_points(prob, n)
    case <- sprintf("n = %d, d = 3 (hartmann3, control sets)", n)
    times <- numeric(0)
    for (nm in names(cvs)) {
      times[nm] <- time_proposal(prob, cvs[[nm]], init, model)
      add(sprintf("policy_%s proposal, %s", nm, case), times[nm])
    }
    cat(sprintf("\n%s:\n", case))
    print(data.frame(policy = names(times), seconds = times, row.names = NULL),
          digits = 3, row.names = FALSE)
  }
  cat("\n")
  invisible(do.call(rbind, out))
}

if (sys.nframe() == 0L) {
  invisible(bench_policies(quick = nzchar(Sys.getenv("BENCH_QUICK"))))
}
