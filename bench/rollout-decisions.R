# Paper 004's fixed horizons: how often the KG rollout's first decision at
# h = 3, 4, 5 is the decision at h = 2, on fixed states. A state is a
# session on one of paper 004's one-source problems (Branin, Six-hump
# camel, Griewank-3) with 9 initial points (a minimax design, paper 004
# Sec. 5.4) evaluated, seed s; the decision is bo_ask()'s point of
# policy_rollout(h, base = "kg") after set.seed(s), so every horizon
# sees the same state and random numbers.
#   R_LIBS=<lib> Rscript bench/rollout-decisions.R [states per problem]
suppressPackageStartupMessages(library(costbo))
source("bench/common.R")  # rollout_fixed_state()
args <- commandArgs(trailingOnly = TRUE)
per <- if (length(args)) as.integer(args[1L]) else 10L
problems <- list(Branin = test_problem("branin"),
                 `Six-hump camel` = test_problem("six_hump_camel"),
                 `Griewank-3` = test_problem("griewank", d = 3))
cat(sprintf("costbo build %s, %d states per problem\n",
            substr(costbo_build()$source_hash, 1L, 8L), per))
t0 <- proc.time()[["elapsed"]]
rows <- list()
for (nm in names(problems)) {
  pr <- problems[[nm]]
  for (s in seq_len(per)) {
    init <- rollout_fixed_state(pr, s)
    x <- lapply(2:5, function(h) {
      sess <- bo_session(pr, policy_rollout(h, base = "kg"), initial = init)
      set.seed(s)
      as.numeric(bo_ask(sess))
    })
    stopifnot(all(vapply(x, function(v) all(is.finite(v)), NA)))
    rows[[length(rows) + 1L]] <- data.frame(
      problem = nm, state = s, h = 3:5,
      same_as_h2 = vapply(2:4, function(k) isTRUE(all.equal(x[[k]], x[[1L]],
                                                            tolerance = 1e-9)),
                          NA))
  }
}
res <- do.call(rbind, rows)
cat(sprintf("%d states in %.0f s\n\n", per * length(problems),
            proc.time()[["elapsed"]] - t0))
cat("share of first decisions equal to h = 2's:\n")
print(round(tapply(res$same_as_h2, list(res$problem, res$h), mean), 2))
cat("\nall problems:\n")
print(round(tapply(res$same_as_h2, res$h, mean), 2))
