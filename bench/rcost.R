# Speed of a known cost written in R (called back from C, src/rcall.c)
# against the same cost given as cost_linear() (evaluated in C), per
# proposal, in one run.
#
# Run from the repository root:
#   R_LIBS=<library> nice -n 10 Rscript bench/rcost.R [reps [problems [policies]]]
# States: a Branin-like function on [0, 1]^2 and Hartmann-6 on [0, 1]^6,
# n = 20 evaluations of a uniformly random design, the cost
# 1 + 20 mean(u) (cost_linear(lower, upper, 1, 20)). For each policy, one
# proposal from the same state and seed with the cost as
#   C:      cost_linear(lower, upper, 1, 20)
#   R+grad: function(x) 1 + 20 * mean(x) with attribute "gradient"
#   R:      the same without the attribute (forward differences in C)
# timed in CPU seconds (user + system; proposals repeated until 0.2 s
# have passed), in `reps` (default 3) repetitions in which the three
# variants take turns. Printed: the median times, the median over
# repetitions of the ratios R+grad / C and R / C within a repetition, and
# the largest R / C. `problems` and `policies` are regular expressions that
# choose the cells (all by default), e.g. `bench/rcost.R 15 hartmann6 EI-PU`.
# Target (issue 18): an R closure at most 3x slower per proposal than
# cost_linear().

suppressPackageStartupMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 3L
# optional further arguments: a regular expression for the problems and one
# for the policies, to time some cells only
cells <- c(if (length(args) > 1L) args[2] else "", if (length(args) > 2L) args[3] else "")
source("bench/rcost-setup.R")

rows <- list()
for (pn in grep(cells[1], names(problems), value = TRUE)) {
  pb <- problems[[pn]]
  for (pol_name in grep(cells[2], names(policies), value = TRUE)) {
    pol <- policies[[pol_name]]()
    st <- state_for(pb, pol)
    variants <- list(C = st$problem$cost, "R+grad" = cost_r(TRUE),
                     R = cost_r(FALSE))
    # the variants take turns within each repetition (C, R+grad, R, C,
    # ...), so that a change in the machine's load between repetitions
    # falls on all three; a ratio is the median over repetitions of the
    # ratios within one repetition
    per_rep <- t(vapply(seq_len(reps), function(i) {
      vapply(names(variants), function(v) {
        s <- st
        s$problem$cost <- variants[[v]]
        cpu(function() {
          set.seed(7)
          pol$propose(s)
        })
      }, 0)
    }, c(C = 0, "R+grad" = 0, R = 0)))
    times <- apply(per_rep, 2L, stats::median)
    ratios <- c(Rgrad = stats::median(per_rep[, "R+grad"] / per_rep[, "C"]),
                R = stats::median(per_rep[, "R"] / per_rep[, "C"]),
                R_max = max(per_rep[, "R"] / per_rep[, "C"]))
    rows[[length(rows) + 1L]] <- data.frame(
      problem = pn, policy = pol_name, C_s = times[["C"]],
      Rgrad_s = times[["R+grad"]], R_s = times[["R"]],
      ratio_Rgrad = ratios[["Rgrad"]], ratio_R = ratios[["R"]],
      ratio_R_max = ratios[["R_max"]])
    cat(".")
  }
}
cat("\n")
tab <- do.call(rbind, rows)
fmt <- tab
for (k in 3:8) fmt[[k]] <- formatC(tab[[k]], digits = 3, format = "g")
fmt$meets_3x <- ifelse(tab$ratio_Rgrad <= 3 & tab$ratio_R <= 3, "yes", "NO")
cat(sprintf("R %s, costbo %s, %d repetitions (median CPU seconds per",
            getRversion(), utils::packageVersion("costbo"), reps),
    "proposal; ratios: median over repetitions of the ratio within one,",
    "and the largest R / C)\n")
old <- options(width = 200)
print(fmt, row.names = FALSE)
options(old)
invisible(tab)
