# The sample count of the CMDP rollout (policy_cmdp_rollout(), paper
# engine): paper 001 states none. On fixed states (bench/common.R's
# cmdp_fixed_state(): Levy with its known linear cost and Ackley with its
# measured cosine cost, n = 20 points, d = 2, 8, 16, two seeds each) and
# horizons h = 2, 3, 4, a proposal with 256 samples gives its candidates
# (the ends of the local searches from the 5 screened starts); for the two
# of largest value, `reps` independent replicates of the estimator (fresh
# scrambled Sobol draws) give, for N = 8, ..., 256
# samples (the first N of each replicate's 256, a scrambled Sobol set), the
# standard error of their value difference, SE_N, as the spread of the
# replicates' differences. The criterion: the smallest N with SE_N <= 5%
# of the best value, at which the expected loss of choosing the wrong one
# of the two (at most 0.17 SE_N, at a difference of 0.75 SE_N) is below 1%
# of the value. The replicates share the proposal's inner raw points (as
# the values of one proposal do), so SE_N is the error of the quasi-Monte
# Carlo average. Prints SE_N / value per state and the share of states
# meeting the criterion at each N.
#   R_LIBS=<lib> Rscript bench/cmdp-samples.R [reps]
suppressPackageStartupMessages(library(costbo))
source("bench/common.R")
options(width = 200)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1L]) else 12L
Ns <- 2^(3:8)
frac <- 0.05
cat(sprintf("costbo build %s, %d replicates\n",
            substr(costbo_build()$source_hash, 1L, 8L), reps))
rows <- list()
t0 <- proc.time()[["elapsed"]]
for (name in c("levy", "ackley")) for (d in c(2L, 8L, 16L)) for (s in 1:2) {
  fs <- cmdp_fixed_state(name, d, s)
  st <- costbo:::state_fit(bo_session(fs$problem, policy_ei(),
                                      initial = fs$initial))
  rs <- costbo:::rollout_state(st)
  for (h in 2:4) {
    ctl <- costbo:::check_rollout_control(list(), paper = TRUE)
    cc <- costbo:::cmdp_paper_control(h, 0L, rs$remaining, ctl, TRUE)
    set.seed(100L * s + h)
    dr <- costbo:::cmdp_paper_draws(d, h, 256L, ctl)
    p <- .Call(costbo:::C_rollout_cmdp_paper_propose, rs$pack,
               costbo:::sobol_unit(10L * d, d), dr$z, dr$raw, cc)
    ends <- p$ends[order(-p$ends[, d + 1L]), , drop = FALSE]
    ends <- ends[!duplicated(round(ends[, seq_len(d)], 6)), , drop = FALSE]
    if (nrow(ends) < 2L) next
    X <- ends[1:2, seq_len(d), drop = FALSE]
    diffs <- matrix(NA_real_, reps, length(Ns))
    vbest <- numeric(reps)
    raw <- dr$raw
    for (r in seq_len(reps)) {
      set.seed(10000L + r)
      z <- costbo:::sobol_unit(256L, h, normal = TRUE)
      v <- .Call(costbo:::C_rollout_cmdp_paper_value, rs$pack, X, z, raw, cc,
                 FALSE)
      dd <- v$samples[, 1L] - v$samples[, 2L]
      diffs[r, ] <- vapply(Ns, function(N) mean(dd[seq_len(N)]), 0)
      vbest[r] <- v$value[1L]
    }
    se <- apply(diffs, 2L, stats::sd)
    rows[[length(rows) + 1L]] <- data.frame(
      problem = name, d = d, seed = s, h = h, value = mean(vbest),
      diff = mean(diffs[, length(Ns)]), t(stats::setNames(se / mean(vbest),
                                                 paste0("N", Ns))))
  }
}
res <- do.call(rbind, rows)
cat(sprintf("%d states in %.0f s\n\n", nrow(res),
            proc.time()[["elapsed"]] - t0))
cat("SE of the value difference of the top two candidates / best value:\n")
print(res, digits = 2, row.names = FALSE)
ok <- sapply(paste0("N", Ns), function(nm) res[[nm]] <= frac)
cat(sprintf("\nshare of states with SE_N <= %g of the value:\n", frac))
print(round(colMeans(ok), 2))
cat("by horizon:\n")
print(round(apply(ok, 2L, function(o) tapply(o, res$h, mean)), 2))
