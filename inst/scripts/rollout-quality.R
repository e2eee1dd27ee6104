# Quality of the rollout policies on the papers' protocols.
#
# Run from the repository root after installing costbo:
#   Rscript inst/scripts/rollout-quality.R            # full scale
#   Rscript inst/scripts/rollout-quality.R reduced    # the cached scale
# Full scale: paper 001 Sec. 6.1 (lee2021, budget 150) with 20 replications
# of EI, EI per unit cost and CMDP rollout h = 2 and 4 (64 QMC samples), and
# paper 004's Table 2/3 protocol (Branin, Six-hump camel, Griewank-3,
# Goldstein-Price, Bohachevsky; 10 d evaluations of cost 1; 9 initial points)
# with 30 replications of the rolling-horizon rollout, greedy KG, EI and
# fixed h = 2..5.  Full scale takes many hours on one core (about 1 minute
# per CMDP h = 4 replication and up to several minutes per fixed h = 5
# replication); the reduced scale (fewer replications and samples, fixed
# h = 2, 3 only) takes about 25 minutes.  Paper 004's Goldstein-Price and
# Bohachevsky runs use two biased sources; costbo runs them single-source
# (the multi-information-source variant is not implemented).
# Results are written to inst/extdata/rollout-quality.rds (or the file
# named by the second argument).

library(costbo)
args <- commandArgs(trailingOnly = TRUE)
reduced <- length(args) >= 1L && args[[1L]] == "reduced"
part <- if (length(args) >= 2L) args[[2L]] else "both"
out_file <- if (length(args) >= 3L) args[[3L]] else
  file.path("inst", "extdata", "rollout-quality.rds")

scale <- if (reduced) {
  list(reps_001 = 10L, samples = 16L, reps_004 = 5L, fixed_h = 2:3)
} else {
  list(reps_001 = 20L, samples = 64L, reps_004 = 30L, fixed_h = 2:5)
}

best_within <- function(run) {
  df <- as.data.frame(run)
  ok <- df$status == "ok" & df$within_budget
  max(df$value[ok])
}

# Paper 001 Sec. 6.1: final objective f = -(best value), lower is better.
part_001 <- function() {
  pols <- list(
    EI = policy_ei(), `EI per unit cost` = policy_ei_pu(),
    `CMDP rollout h = 2` = policy_rollout(2, n_samples = scale$samples),
    `CMDP rollout h = 4` = policy_rollout(4, n_samples = scale$samples))
  rows <- list()
  for (nm in names(pols)) for (r in seq_len(scale$reps_001)) {
    t0 <- proc.time()[["elapsed"]]
    run <- bo_optimize(test_problem("lee2021"), pols[[nm]], seed = r,
                       progress = FALSE)
    rows[[length(rows) + 1L]] <- data.frame(
      policy = nm, rep = r, final_objective = -best_within(run),
      evaluations = sum(run$phase != "initial"),
      seconds = proc.time()[["elapsed"]] - t0)
    cat(nm, r, rows[[length(rows)]]$final_objective, "\n")
  }
  do.call(rbind, rows)
}

# Paper 004: Gap G = (best_N - best_init) / (optimum - best_init).
part_004 <- function() {
  probs <- c("branin", "six_hump_camel", "griewank", "goldstein_price",
             "bohachevsky")
  pols <- c(list(
    `rolling horizon` = policy_rollout("adaptive"),
    `rolling horizon (K = 0.01)` =
      policy_rollout("adaptive", control = list(error_const = 0.01)),
    `greedy KG` = policy_kg(), EI = policy_ei()),
    stats::setNames(lapply(scale$fixed_h, function(h)
      policy_rollout(h, base = "kg")), sprintf("KG rollout h = %d",
                                               scale$fixed_h)))
  rows <- list()
  for (pn in probs) for (nm in names(pols)) for (r in seq_len(scale$reps_004)) {
    prob <- test_problem(pn)
    t0 <- proc.time()[["elapsed"]]
    run <- bo_optimize(prob, pols[[nm]], n_init = 9, seed = r,
                       progress = FALSE)
    df <- as.data.frame(run)
    b0 <- max(df$value[df$phase == "initial"])
    bn <- best_within(run)
    hs <- if (is.null(df$h)) NA else df$h[df$phase != "initial"]
    rows[[length(rows) + 1L]] <- data.frame(
      problem = pn, policy = nm, rep = r,
      gap = (bn - b0) / (prob$optimum - b0),
      h = paste(hs, collapse = " "),
      seconds = proc.time()[["elapsed"]] - t0)
    cat(pn, nm, r, rows[[length(rows)]]$gap, "\n")
  }
  do.call(rbind, rows)
}

res <- list(scale = scale, reduced = reduced,
            session = utils::sessionInfo()$R.version$version.string)
if (part %in% c("both", "001")) res$paper001 <- part_001()
if (part %in% c("both", "004")) res$paper004 <- part_004()
saveRDS(res, out_file)

if (!is.null(res$paper001)) {
  print(aggregate(final_objective ~ policy, res$paper001,
                  function(v) c(mean = mean(v), se = stats::sd(v) /
                                  sqrt(length(v)))))
}
if (!is.null(res$paper004)) {
  print(aggregate(gap ~ problem + policy, res$paper004,
                  function(v) c(mean = mean(v), median = stats::median(v))))
  rh <- res$paper004[res$paper004$policy == "rolling horizon", ]
  print(table(unlist(strsplit(rh$h, " "))))
}
