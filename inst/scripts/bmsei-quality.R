# Quality of 4-step B-MS-EI against EI, EI-PU and EI-PU-CC (Astudillo et al.
# 2021, Fig. 4): final log10 regret on Dropwave, Alpine1, Ackley and Shekel5
# with the cosine cost family (costs unknown, learned by a GP on log cost)
# and the reference implementation's budgets (40, 60, 60, 80).
#
# Full scale (the default): 4 problems x 4 policies x 20 replications.
#   Rscript inst/scripts/bmsei-quality.R [reps] [problems] [cores]
# e.g. Rscript inst/scripts/bmsei-quality.R 20 dropwave,alpine1,ackley,shekel5 8
# Run time: an EI run takes seconds; a 4-step B-MS-EI run makes one tree
# optimization (about 1 to 5 s at n = 20 to 50) per evaluation, i.e. tens of
# evaluations x a few seconds = a few minutes per replication and problem.
# The full scale takes about 4 x 20 x 5 min = 7 hours on one core (about 1
# hour on 8 cores, with parallel::mclapply).
#
# Writes inst/extdata/bmsei-quality.rds: a data frame with one row per run
# (problem, policy, rep, final regret, log10 regret, evaluations, time) and
# attribute "call" (the arguments used).
library(costbo)

args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 20L
problems <- if (length(args) >= 2L) strsplit(args[2L], ",")[[1L]] else
  c("dropwave", "alpine1", "ackley", "shekel5")
cores <- if (length(args) >= 3L) as.integer(args[3L]) else 1L
out <- if (length(args) >= 4L) args[4L] else
  file.path("inst", "extdata", "bmsei-quality.rds")

policies <- list(EI = policy_ei, `EI-PU` = policy_ei_pu,
                 `EI-PU-CC` = policy_ei_pu_cc,
                 `4-B-MS-EI` = function() policy_bmsei(steps = 4))

jobs <- expand.grid(rep = seq_len(reps), policy = names(policies),
                    problem = problems, stringsAsFactors = FALSE)
one <- function(i) {
  j <- jobs[i, ]
  prob <- test_problem(j$problem, cost = "cosine", seed = j$rep)
  t0 <- Sys.time()
  run <- bo_optimize(prob, policies[[j$policy]](), seed = j$rep,
                     progress = FALSE)
  s <- summary(run)
  data.frame(problem = j$problem, policy = j$policy, rep = j$rep,
             regret = s$regret, log10_regret = log10(max(s$regret, 1e-12)),
             evaluations = s$n_within_budget,
             seconds = as.numeric(difftime(Sys.time(), t0, units = "secs")))
}
res <- if (cores > 1L) {
  parallel::mclapply(seq_len(nrow(jobs)), one, mc.cores = cores)
} else lapply(seq_len(nrow(jobs)), one)
res <- do.call(rbind, res)
attr(res, "call") <- list(reps = reps, problems = problems,
                          date = format(Sys.time()),
                          version = as.character(packageVersion("costbo")))
saveRDS(res, out)

# Mean final log10 regret with 95% confidence intervals.
tab <- do.call(rbind, lapply(split(res, list(res$problem, res$policy)),
                             function(d) {
  m <- mean(d$log10_regret)
  se <- stats::sd(d$log10_regret) / sqrt(nrow(d))
  data.frame(problem = d$problem[1], policy = d$policy[1], n = nrow(d),
             mean = m, lower = m - 1.96 * se, upper = m + 1.96 * se,
             seconds = mean(d$seconds))
}))
print(tab[order(tab$problem, tab$policy), ], row.names = FALSE, digits = 3)
