# RF-Boston (Astudillo et al. 2021, Sec. 5.1 and Fig. 4): tuning a random
# forest regressor on the Boston housing data with its training time as an
# unknown cost, by EI, EI-PU, EI-PU-CC and B-MS-EI.
#
# The problem: the number of trees in [1, 256] and the maximum depth in
# [1, 64] (both rounded), and log10 of the fraction of features tried at each
# split in [-1, 0]; the forest is grown by ranger (mtry = the fraction times
# the 13 predictors, rounded, at least 1; one thread) on MASS::Boston. The
# objective is minus the 5-fold cross-validated mean squared error of medv,
# with folds and forest seed fixed by the replication. The cost is the CPU
# time of the five trainings and predictions, in units of the CPU time of the
# same CV of a default forest (100 trees, unlimited depth, all features;
# median of three, measured when the problem is built), as the reference
# implementation scales training times by a default forest's. CPU time
# rather than elapsed time keeps the costs meaningful on a shared machine.
# Budget 10 units, 8 initial Sobol points (2 (d + 1)), not charged, as in the
# reference implementation (experiments/rfboston_runner.py: budget = 10.0,
# n_init_evals = 8).
#
# Run from the repository root with costbo, ranger and MASS installed:
#   Rscript inst/scripts/rf-boston.R [reduced|full|timing] [backend] [workers]
# backend is "sequential" (default), "parallel" or "future" (then set a
# future plan in ~/.Rprofile or edit the plan below); workers is the number
# of local workers of the "parallel" back end.
#
# Full scale: the paper's protocol, 200 replications of EI, EI-PU,
# EI-PU-CC, 2-B-MS-EI_p, 2-B-MS-EI, 4-B-MS-EI_p and 4-B-MS-EI.
#   Rscript inst/scripts/rf-boston.R full parallel 32
# Reduced scale (the cached inst/extdata/rf-boston.rds): 6 replications of
# EI, EI-PU, EI-PU-CC and 4-B-MS-EI_p, on 2 workers of a shared 2-core
# machine:
#   Rscript inst/scripts/rf-boston.R reduced parallel 2
# Both also time three acquisitions of each of the seven policies on
# replication 1 (`acquisition_seconds` in the cache); `timing` does only
# that, adding the times to an existing cache.
#
# Run time on one core, measured at reduced scale and extrapolated: a
# replication of EI, EI-PU, EI-PU-CC, 2-B-MS-EI_p, 2-B-MS-EI or
# 4-B-MS-EI_p takes about 20 s of CPU (mostly the forests' CVs: 8 initial
# points, 10 default-forest units of budget of about 0.7 s each here, and
# 3 default forests to set the unit; acquisitions take 0.005 to 0.25 s of
# wall time), a replication of 4-B-MS-EI about 1 min (about 30
# acquisitions of about 1 s each at 8 to 10 observations, more later, plus
# its forests). The full scale therefore needs about
# 200 x (6 x 20 s + 1 min) = 10 hours on one core (about 20 minutes on
# 32 workers). The reduced scale took 12 minutes of wall time on 2 workers
# of a shared 2-core machine under heavy load (each replication 40 to 85 s
# of wall time with about a third of a core).

library(costbo)
for (pkg in c("ranger", "MASS")) {
  if (!requireNamespace(pkg, quietly = TRUE)) {
    stop("this script needs the ", pkg, " package: install.packages(\"", pkg,
         "\")", call. = FALSE)
  }
}
args <- commandArgs(trailingOnly = TRUE)
scale <- if (length(args) >= 1L) args[1L] else "reduced"
scale <- match.arg(scale, c("reduced", "full", "timing"))
backend <- if (length(args) >= 2L) args[2L] else "sequential"
workers <- if (length(args) >= 3L) as.integer(args[3L]) else NULL
if (backend == "future" && requireNamespace("future", quietly = TRUE) &&
    inherits(future::plan(), "sequential")) {
  future::plan(future::multisession, workers = if (is.null(workers)) 2L else
    workers)
}

# The problem of replication `rep`: folds and forest seed fixed by `rep`.
rf_boston <- function(rep, budget = 10) {
  data <- MASS::Boston
  p <- ncol(data) - 1L
  # folds fixed by the replication, without touching the optimizer's stream
  folds <- local({
    old <- get0(".Random.seed", globalenv(), inherits = FALSE)
    on.exit(if (is.null(old)) rm(".Random.seed", envir = globalenv()) else
      assign(".Random.seed", old, globalenv()))
    set.seed(rep, kind = "Mersenne-Twister")
    sample(rep_len(1:5, nrow(data)))
  })
  cv <- function(trees, depth, mtry) {
    t0 <- proc.time()
    pred <- numeric(nrow(data))
    for (k in 1:5) {
      fit <- ranger::ranger(medv ~ ., data = data[folds != k, ],
                            num.trees = trees, max.depth = depth,
                            mtry = mtry, num.threads = 1, seed = rep)
      pred[folds == k] <- predict(fit, data[folds == k, ])$predictions
    }
    t <- proc.time() - t0
    list(mse = mean((data$medv - pred)^2),
         seconds = max(t[["user.self"]] + t[["sys.self"]], 1e-3))
  }
  # the cost unit: the same CV of a default forest (median of three)
  unit <- stats::median(replicate(3, cv(100, 0, p)$seconds))
  bo_problem(function(x) {
    r <- cv(round(x[1]), round(x[2]), max(1, round(10^x[3] * p)))
    list(value = -r$mse, cost = r$seconds / unit)
  }, lower = c(1, 1, -1), upper = c(256, 64, 0), budget = budget,
  name = "RF-Boston")
}

if (scale == "full") {
  reps <- 200L
  policies <- list(
    EI = policy_ei(), `EI-PU` = policy_ei_pu(), `EI-PU-CC` = policy_ei_pu_cc(),
    `2-B-MS-EI_p` = policy_bmsei(steps = 2, path = TRUE),
    `2-B-MS-EI` = policy_bmsei(steps = 2),
    `4-B-MS-EI_p` = policy_bmsei(steps = 4, path = TRUE),
    `4-B-MS-EI` = policy_bmsei(steps = 4))
} else {
  reps <- 6L
  policies <- list(
    EI = policy_ei(), `EI-PU` = policy_ei_pu(), `EI-PU-CC` = policy_ei_pu_cc(),
    `4-B-MS-EI_p` = policy_bmsei(steps = 4, path = TRUE))
}

timing_policies <- list(
  EI = policy_ei(), `EI-PU` = policy_ei_pu(), `EI-PU-CC` = policy_ei_pu_cc(),
  `2-B-MS-EI_p` = policy_bmsei(steps = 2, path = TRUE),
  `2-B-MS-EI` = policy_bmsei(steps = 2),
  `4-B-MS-EI_p` = policy_bmsei(steps = 4, path = TRUE),
  `4-B-MS-EI` = policy_bmsei(steps = 4))
# Wall times of three acquisitions (model fit + policy) per policy on
# replication 1, after the initial design.
time_acquisitions <- function() {
  prob <- rf_boston(1)
  rows <- lapply(names(timing_policies), function(name) {
    run <- bo_optimize(prob, timing_policies[[name]], n_init = 8L, seed = 1L,
                       max_evaluations = 3L, progress = FALSE)
    df <- as.data.frame(run)
    bo <- df$phase == "bo"
    data.frame(policy = name, step = seq_len(sum(bo)),
               fit_seconds = df$fit_time[bo],
               policy_seconds = df$policy_time[bo])
  })
  do.call(rbind, rows)
}
file <- file.path("inst", "extdata", "rf-boston.rds")
if (scale == "timing") {
  out <- readRDS(file)
  out$acquisition_seconds <- time_acquisitions()
  print(out$acquisition_seconds)
  saveRDS(out, file, compress = "xz")
  quit(save = "no")
}

# One benchmark per policy, joined with c() and saved after each, so that a
# study stopped early keeps the policies it finished.
bm <- NULL
for (name in names(policies)) {
  b <- bo_benchmark(list(`RF-Boston` = rf_boston), policies[name],
                    reps = reps, backend = backend, workers = workers,
                    seed = 1L, n_init = 8L, progress = TRUE)
  bm <- if (is.null(bm)) b else c(bm, b)
  # the benchmark holds the runs' traces, not the problems or models
  out <- list(benchmark = bm, scale = scale, backend = backend,
              workers = if (is.null(workers)) NA_integer_ else workers,
              costbo = as.character(utils::packageVersion("costbo")),
              ranger = as.character(utils::packageVersion("ranger")),
              date = Sys.Date())
  if (dir.exists(dirname(file))) saveRDS(out, file, compress = "xz")
  message(sprintf("%s done: %.0f s", name, b$seconds))
}
out$acquisition_seconds <- time_acquisitions()
if (dir.exists(dirname(file))) saveRDS(out, file, compress = "xz")
print(bm)
print(summary(bm))
print(out$acquisition_seconds)
