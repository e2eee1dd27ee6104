# Golden traces: every policy on small problems under fixed seeds, so that a
# change meant to leave every run unchanged (a refactoring) can be shown to.
# test-golden.R compares the runs of the installed build with the traces
# stored in _golden/traces.rds. A change that alters runs on purpose
# regenerates the file (and says so in NEWS.md), from the package's source
# directory with the new build installed:
#   Rscript -e 'testthat::source_test_helpers("tests/testthat", env = globalenv());
#     saveRDS(golden_runs(), "tests/testthat/_golden/traces.rds", version = 2)'

# The cases: plain policies on Branin with a known linear cost and on
# Dropwave with a measured cosine cost; the control-set policies on a
# control-set problem; the multi-source policies on a multi-source problem.
golden_cases <- function() {
  branin <- function() test_problem("branin", cost = "linear", budget = 40)
  dropwave <- function() test_problem("dropwave", seed = 3, budget = 6)
  plain <- list(
    ei = function() policy_ei(), ei_pu = function() policy_ei_pu(),
    ei_pu_cc = function() policy_ei_pu_cc(), ucb = function() policy_ucb(),
    q1 = function() policy_q1(), random = function() policy_random(),
    kg = function() policy_kg(n_nodes = 4, n_cand = 20),
    pbgi = function() policy_pbgi(), pbgi_d = function() policy_pbgi_d(),
    bmsei_path = function() policy_bmsei(steps = 3, path = TRUE),
    bmsei_tree = function() policy_bmsei(steps = 2, fantasies = 3),
    rollout = function() policy_rollout(horizon = 2, n_samples = 8,
                                        n_nodes = 3, n_cand = 20),
    rolling = function() policy_rollout(horizon = "adaptive", n_samples = 8,
                                        max_horizon = 3, n_nodes = 3,
                                        n_cand = 20))
  cases <- list()
  for (p in names(plain)) {
    cases[[paste0("branin/", p)]] <- list(problem = branin, policy = plain[[p]])
    cases[[paste0("dropwave/", p)]] <- list(problem = dropwave,
                                            policy = plain[[p]])
  }
  cvs <- function() test_problem_cvs("gp_sample", costs = "moderate",
                                     seed = 2, budget = 3)
  cvs_pols <- list(
    ts_psq = function() policy_ts_psq(n_features = 64, n_samples = 64,
                                      n_raw = 20, n_starts = 2),
    ucb_psq = function() policy_ucb_psq(n_samples = 64, n_raw = 20,
                                        n_starts = 2),
    ucb_cvs = function() policy_ucb_cvs(epsilon = 0.1, n_samples = 64,
                                        n_raw = 20, n_starts = 2),
    etc = function() policy_etc(plays = c(2, 2), n_samples = 64,
                                n_raw = 20, n_starts = 2),
    etc_ada = function() policy_etc(n_samples = 64, n_raw = 20,
                                    n_starts = 2))
  for (p in names(cvs_pols)) {
    cases[[paste0("cvs/", p)]] <- list(problem = cvs, policy = cvs_pols[[p]])
  }
  miso <- function() test_problem_miso("rosenbrock", budget = 12, seed = 2)
  miso_pols <- list(
    kg = function() policy_kg(n_nodes = 4, n_cand = 20),
    rollout = function() policy_rollout(horizon = 2, base = "kg",
                                        n_samples = 8, n_nodes = 3,
                                        n_cand = 20),
    rolling = function() policy_rollout(horizon = "adaptive", base = "kg",
                                        n_samples = 8, max_horizon = 3,
                                        n_nodes = 3, n_cand = 20))
  for (p in names(miso_pols)) {
    cases[[paste0("miso/", p)]] <- list(problem = miso,
                                        policy = miso_pols[[p]])
  }
  cases
}

# What a run must reproduce: its record without the wall-clock times (the
# points, values, costs, acquisition values, phases, statuses, control sets
# or sources), the per-step information of the policy and how it stopped.
golden_trace <- function(run) {
  df <- as.data.frame(run)
  df <- df[, !grepl("time", names(df)), drop = FALSE]
  info <- lapply(run$info, function(i) {
    if (is.list(i)) i[!grepl("time|seconds", names(i))] else i
  })
  list(record = df, info = info, stop_reason = run$stop_reason,
       spent = run$spent)
}

golden_runs <- function(cases = golden_cases()) {
  lapply(cases, function(k) {
    golden_trace(bo_optimize(k$problem(), k$policy(), n_init = 4, seed = 11,
                             progress = FALSE))
  })
}
