# Paper 004's fixed horizons: does the KG rollout's decision at horizon h
# reach the maximum of its own h-step value? On the fixed states of
# bench/rollout-decisions.R (paper 004's one-source problems, 9-point
# minimax designs), the h-step value (the policy's acquisition, with the
# candidates of the proposal: the same seed) of the decision bo_ask()
# makes, against its maximum over a grid of the box (`k` points per
# coordinate in two dimensions, 21 in three) and the decision itself. The
# issue's criterion for keeping a screen cheaper than the h-step value:
# at least 99% of that maximum on every state.
#   R_LIBS=<lib> Rscript bench/rollout-screen.R [h] [states per problem] [k]
suppressPackageStartupMessages(library(costbo))
source("bench/common.R")  # rollout_fixed_state()
args <- commandArgs(trailingOnly = TRUE)
h <- if (length(args)) as.integer(args[1L]) else 3L
per <- if (length(args) > 1L) as.integer(args[2L]) else 10L
k <- if (length(args) > 2L) as.integer(args[3L]) else 51L
problems <- list(Branin = test_problem("branin"),
                 `Six-hump camel` = test_problem("six_hump_camel"),
                 `Griewank-3` = test_problem("griewank", d = 3))
cat(sprintf("costbo build %s, h = %d, %d states per problem, grid %d\n",
            substr(costbo_build()$source_hash, 1L, 8L), h, per, k))
t0 <- proc.time()[["elapsed"]]
rows <- list()
for (nm in names(problems)) {
  pr <- problems[[nm]]
  kk <- if (pr$d == 2L) k else 21L
  G <- as.matrix(expand.grid(lapply(seq_len(pr$d), function(j) {
    seq(pr$lower[j], pr$upper[j], length.out = kk)
  })))
  colnames(G) <- paste0("x", seq_len(pr$d))
  for (s in seq_len(per)) {
    init <- rollout_fixed_state(pr, s)
    sess <- bo_session(pr, policy_rollout(h, base = "kg"), initial = init)
    set.seed(s)
    x <- as.numeric(bo_ask(sess))
    set.seed(s)
    vx <- bo_acquisition(sess, matrix(x, 1L))
    set.seed(s)
    vg <- bo_acquisition(sess, G)
    rows[[length(rows) + 1L]] <- data.frame(
      problem = nm, state = s, value = vx, grid_max = max(vg),
      ratio = vx / max(vx, vg))
  }
}
res <- do.call(rbind, rows)
cat(sprintf("%d states in %.0f s\n\n", nrow(res), proc.time()[["elapsed"]] - t0))
print(res, digits = 4, row.names = FALSE)
cat(sprintf("\nratio: min %.4f, median %.4f; at least 0.99 on %d of %d states\n",
            min(res$ratio), stats::median(res$ratio), sum(res$ratio >= 0.99),
            nrow(res)))
