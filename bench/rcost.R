# Speed of a known cost written in R (called back from C, src/rcall.c)
# against the same cost given as cost_linear() (evaluated in C), per
# proposal, in one run.
#
# Run from the repository root:
#   R_LIBS=<library> nice -n 10 Rscript bench/rcost.R [reps]
# States: a Branin-like function on [0, 1]^2 and Hartmann-6 on [0, 1]^6,
# n = 20 evaluations of a uniformly random design, the cost
# 1 + 20 mean(u) (cost_linear(lower, upper, 1, 20)). For each policy, one
# proposal from the same state and seed with the cost as
#   C:      cost_linear(lower, upper, 1, 20)
#   R+grad: function(x) 1 + 20 * mean(x) with attribute "gradient"
#   R:      the same without the attribute (forward differences in C)
# timed in CPU seconds (user + system; proposals repeated until 0.2 s
# have passed), the median of `reps` (default 3) repetitions. Printed: the times and the ratios R+grad / C and R / C.
# Target (issue 18): an R closure at most 3x slower per proposal than
# cost_linear().

suppressPackageStartupMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 3L
source("bench/rcost-setup.R")

rows <- list()
for (pn in names(problems)) {
  pb <- problems[[pn]]
  for (pol_name in names(policies)) {
    pol <- policies[[pol_name]]()
    st <- state_for(pb, pol)
    variants <- list(C = st$problem$cost, "R+grad" = cost_r(TRUE),
                     R = cost_r(FALSE))
    times <- sapply(names(variants), function(v) {
      s <- st
      s$problem$cost <- variants[[v]]
      stats::median(vapply(seq_len(reps), function(i) {
        cpu(function() {
          set.seed(7)
          pol$propose(s)
        })
      }, 0))
    })
    rows[[length(rows) + 1L]] <- data.frame(
      problem = pn, policy = pol_name, C_s = times[["C"]],
      Rgrad_s = times[["R+grad"]], R_s = times[["R"]],
      ratio_Rgrad = times[["R+grad"]] / times[["C"]],
      ratio_R = times[["R"]] / times[["C"]])
    cat(".")
  }
}
cat("\n")
tab <- do.call(rbind, rows)
fmt <- tab
for (k in 3:7) fmt[[k]] <- formatC(tab[[k]], digits = 3, format = "g")
fmt$meets_3x <- ifelse(tab$ratio_Rgrad <= 3 & tab$ratio_R <= 3, "yes", "NO")
cat(sprintf("R %s, costbo %s, %d repetitions (median CPU seconds per",
            getRversion(), utils::packageVersion("costbo"), reps),
    "proposal)\n")
old <- options(width = 200)
print(fmt, row.names = FALSE)
options(old)
invisible(tab)
