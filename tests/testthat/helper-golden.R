# Golden traces: every policy on small problems under fixed seeds, so that a
# change meant to leave every run unchanged (a refactoring) can be shown to.
# test-golden.R compares the runs of the installed build with the traces
# stored in _golden/traces.rds: every discrete outcome exactly (the points'
# order, statuses, phases, stop reasons, control sets, sources, horizons,
# NA patterns) and every real number to a relative tolerance of 1e-10
# (golden_diff()), so that they pin the decisions, not the last bits of a
# summation order. A change that alters runs on purpose regenerates the
# file (and says so in NEWS.md), from the package's source directory with
# the new build installed:
#   Rscript -e 'testthat::source_test_helpers("tests/testthat", env = globalenv());
#     saveRDS(golden_runs(), "tests/testthat/_golden/traces.rds", version = 2)'

# The cases: plain policies on Branin with a known linear cost and on
# Dropwave with a measured cosine cost; the myopic policies with a known
# cost written in R; the policies that take a finite
# domain on 30 candidates with an explicit prior and a known cost, and
# without a prior with a measured cost; the control-set policies on a
# control-set problem; the multi-source policies on a multi-source problem.
golden_cases <- function() {
  branin <- function() test_problem("branin", cost_family = "linear", budget = 40)
  dropwave <- function() test_problem("dropwave", seed = 3, budget = 6)
  plain <- list(
    ei = function() policy_ei(), ei_pu = function() policy_ei_pu(),
    ei_pu_cc = function() policy_ei_pu_cc(), ucb = function() policy_ucb(),
    q1 = function() policy_q1(), random = function() policy_random(),
    kg = function() policy_kg(n_nodes = 4, n_cand = 20),
    pbgi = function() policy_pbgi(), pbgi_d = function() policy_pbgi_d(),
    bmsei_path = function() policy_bmsei(steps = 3, path = TRUE),
    bmsei_tree = function() policy_bmsei(steps = 2, fantasies = 3),
    # the deprecated constructor makes the policies it made (fantasy
    # observations on every problem)
    rollout = function() golden_deprecated(policy_rollout(
      horizon = 2, n_samples = 8, n_nodes = 3, n_cand = 20)),
    rolling = function() golden_deprecated(policy_rollout(
      horizon = "adaptive", n_samples = 8, max_horizon = 3, n_nodes = 3,
      n_cand = 20)),
    cmdp_rollout = function() policy_cmdp_rollout(horizon = 2, n_samples = 8),
    kg_rolling = function() policy_kg_rollout(max_horizon = 3, n_nodes = 3,
                                              n_cand = 20))
  # a known cost written in R: its acquisitions are maximized with the
  # GP's gradients from predict()
  r_cost <- function() {
    bo_problem(function(x) -sum((x - 0.3)^2) + sin(5 * x[1]),
               lower = c(0, 0), upper = c(1, 1),
               cost = function(x) 1 + 2 * x[1] + x[2]^2, budget = 12)
  }
  cases <- list()
  for (p in names(plain)) {
    cases[[paste0("branin/", p)]] <- list(problem = branin, policy = plain[[p]])
    cases[[paste0("dropwave/", p)]] <- list(problem = dropwave,
                                            policy = plain[[p]])
  }
  for (p in c("ei", "ei_pu", "ei_pu_cc", "ucb", "q1", "pbgi", "pbgi_d")) {
    cases[[paste0("r_cost/", p)]] <- list(problem = r_cost,
                                          policy = plain[[p]])
  }
  finite <- function(prior) {
    cand <- with_golden_seed(5, matrix(stats::runif(60), 30))
    f <- function(x) sin(3 * x[1]) + cos(2 * x[2])
    if (prior) {
      K <- exp(-as.matrix(stats::dist(cand))^2 / (2 * 0.3^2)) +
        diag(1e-8, 30)
      bo_problem(f, candidates = cand, prior = list(mean = rep(0, 30),
                                                    cov = K),
                 cost = function(x) 1 + x[1], budget = 10, noise = 1e-6)
    } else {
      bo_problem(function(x) list(value = f(x), cost = exp(x[2])),
                 candidates = cand, budget = 10)
    }
  }
  for (p in setdiff(names(plain), c("kg", "rollout", "rolling",
                                    "cmdp_rollout", "kg_rolling"))) {
    cases[[paste0("finite_prior/", p)]] <- list(
      problem = function() finite(TRUE), policy = plain[[p]])
    if (!startsWith(p, "bmsei")) {
      cases[[paste0("finite/", p)]] <- list(problem = function() finite(FALSE),
                                            policy = plain[[p]])
    }
  }
  cvs <- function() test_problem_cvs("gp_sample", cost_set = "moderate",
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
    rollout = function() golden_deprecated(policy_rollout(
      horizon = 2, base = "kg", n_samples = 8, n_nodes = 3, n_cand = 20)),
    rolling = function() golden_deprecated(policy_rollout(
      horizon = "adaptive", base = "kg", n_samples = 8, max_horizon = 3,
      n_nodes = 3, n_cand = 20)),
    kg_rollout = function() policy_kg_rollout(horizon = 2, n_nodes = 3,
                                              n_cand = 20),
    kg_rolling = function() policy_kg_rollout(max_horizon = 3, n_nodes = 3,
                                              n_cand = 20))
  for (p in names(miso_pols)) {
    cases[[paste0("miso/", p)]] <- list(problem = miso,
                                        policy = miso_pols[[p]])
  }
  cases
}

# A deprecated constructor's policy, without its warning.
golden_deprecated <- function(expr) {
  withCallingHandlers(expr, costbo_warning_deprecated = function(w) {
    invokeRestart("muffleWarning")
  })
}

# expr evaluated under set.seed(seed), leaving the caller's stream as it was.
with_golden_seed <- function(seed, expr) {
  old <- get0(".Random.seed", globalenv(), inherits = FALSE)
  on.exit(if (is.null(old)) rm(".Random.seed", envir = globalenv()) else
    assign(".Random.seed", old, globalenv()))
  set.seed(seed)
  expr
}

# What a run must reproduce: its record without the wall-clock times (the
# points, values, costs, acquisition values, phases, statuses, control sets
# or sources), without the best value so far (a running maximum of the
# values) and the predicted costs (cost_predicted, cost_lower, cost_upper,
# prob_fit: predictions, not decisions), which the traces predate, the
# per-step information of the policy and how it stopped.
golden_trace <- function(run) {
  df <- as.data.frame(run)
  skip <- c("best_value", "cost_predicted", "cost_lower", "cost_upper",
            "prob_fit")
  df <- df[, !grepl("time", names(df)) & !names(df) %in% skip,
           drop = FALSE]
  info <- lapply(run$info, function(i) {
    if (is.list(i)) i[!grepl("time|seconds", names(i))] else i
  })
  list(record = df, info = info, stop_reason = run$stop_reason,
       spent = run$spent)
}

golden_runs <- function(cases = golden_cases()) {
  lapply(cases, function(k) {
    # (a free design: the cases' budgets are for the policies' steps; the
    # default budget rule, so that its budget-feasible steps are pinned)
    golden_trace(bo_optimize(k$problem(), k$policy(), n_init = 4, seed = 11,
                             charge_initial = FALSE, progress = FALSE))
  })
}

# Where `now` departs from the golden trace `ref`: NULL when every discrete
# part (anything but a double: characters, integers, logicals, factors,
# names, lengths, dimensions, classes, NA patterns) is identical and every
# double is within `tol` of the golden one, relative to the larger of the
# two and to the largest magnitude of its vector (so that a coordinate
# near 0 of a point in a box of width 1 may move by at most tol);
# otherwise a description of the first difference, with its path.
golden_diff <- function(now, ref, tol = 1e-10, path = "trace") {
  same_shape <- identical(class(now), class(ref)) &&
    identical(typeof(now), typeof(ref)) &&
    identical(length(now), length(ref)) &&
    identical(names(now), names(ref)) && identical(dim(now), dim(ref))
  if (!same_shape) {
    return(sprintf("%s: class, type, length, names or dimensions differ", path))
  }
  if (is.list(now)) {
    for (k in seq_along(now)) {
      nm <- if (!is.null(names(now)) && nzchar(names(now)[k])) {
        paste0("$", names(now)[k])
      } else sprintf("[[%d]]", k)
      d <- golden_diff(now[[k]], ref[[k]], tol, paste0(path, nm))
      if (!is.null(d)) return(d)
    }
    return(NULL)
  }
  if (!identical(attributes(now), attributes(ref))) {
    return(sprintf("%s: attributes differ", path))
  }
  if (!is.double(now)) {
    if (identical(now, ref)) return(NULL)
    k <- which(now != ref | is.na(now) != is.na(ref))[1L]
    return(sprintf("%s[%d]: %s, golden %s", path, k, format(now[k]),
                   format(ref[k])))
  }
  if (!identical(is.na(now), is.na(ref)) ||
      !identical(is.nan(now), is.nan(ref))) {
    return(sprintf("%s: NA at other places", path))
  }
  ok <- !is.na(now)
  a <- now[ok]
  b <- ref[ok]
  fin <- is.finite(a) & is.finite(b)
  if (!identical(a[!fin], b[!fin])) {
    return(sprintf("%s: infinite values differ", path))
  }
  scale <- max(abs(b[fin]), 0)
  bad <- abs(a[fin] - b[fin]) > tol * pmax(abs(a[fin]), abs(b[fin]), scale)
  if (any(bad)) {
    k <- which(ok)[which(fin)[which(bad)[1L]]]
    return(sprintf("%s[%d]: %.17g, golden %.17g (relative difference %.3g)",
                   path, k, now[k], ref[k],
                   abs(now[k] - ref[k]) / max(abs(ref[k]), scale)))
  }
  NULL
}
