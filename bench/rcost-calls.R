# Where the time of an R cost goes in one proposal: EI-PU on Hartmann-6,
# the state and seed of bench/rcost.R, the cost 1 + 20 mean(u) given as
# cost_linear() (C), as an R closure with and without a "gradient"
# attribute (bench/rcost.R's closures), and as two plain closures of the
# same value, f1 and f3, whose bodies do the work once and three times.
#
# Run from the repository root:
#   R_LIBS=<library> Rscript bench/rcost-calls.R
# Prints the closure calls per proposal (with and without the gradient),
# whether every variant proposes the same point as C, the CPU time per
# call of each closure body in an R loop, the CPU seconds per proposal
# (median of 5), and from them costbo's own time per closure call:
# (proposal time above C - calls x body time) / calls.

suppressPackageStartupMessages(library(costbo))
source("bench/rcost-setup.R")

pol <- policies[["EI-PU"]]()
st <- state_for(problems$hartmann6, pol)
propose <- function(cost) {
  s <- st
  s$problem$cost <- cost
  set.seed(7)
  unlist(pol$propose(s)$x)
}
counted <- function(f) {
  n <- 0L
  g <- function(x) {
    n <<- n + 1L
    f(x)
  }
  list(fn = g, n = function() n)
}
f1 <- function(x) 1 + 20 * sum(x) / length(x)
f3 <- function(x) {
  a <- 1 + 20 * sum(x) / length(x)
  b <- 1 + 20 * sum(x) / length(x)
  d <- 1 + 20 * sum(x) / length(x)
  a
}
x_c <- propose(st$problem$cost)
calls <- c()
for (v in c("R+grad", "R")) {
  cf <- counted(cost_r(v == "R+grad"))
  x_v <- propose(cf$fn)
  calls[v] <- cf$n()
  cat(sprintf("%-7s %6d closure calls per proposal, same point as C: %s\n",
              v, cf$n(), identical(signif(x_v, 7), signif(x_c, 7))))
}
x3 <- propose(f3)
cat(sprintf("f3 same point as C: %s\n",
            identical(signif(x3, 7), signif(x_c, 7))))

u <- runif(6)
body_us <- sapply(list(f1 = f1, f3 = f3), function(f) {
  for (i in 1:100) f(u) # byte-compiled by the JIT before timing
  t <- system.time(for (i in 1:2e5) f(u))
  (t[["user.self"]] + t[["sys.self"]]) / 2e5 * 1e6
})
tm <- function(cost) {
  s <- st
  s$problem$cost <- cost
  stats::median(replicate(5, cpu(function() {
    set.seed(7)
    pol$propose(s)
  })))
}
ms <- c(C = tm(st$problem$cost), f1 = tm(f1), f3 = tm(f3)) * 1e3
n <- calls[["R"]]
cat(sprintf("body per call in an R loop: f1 %.2f us, f3 %.2f us\n",
            body_us[["f1"]], body_us[["f3"]]))
cat(sprintf("proposal: C %.2f ms, f1 %.2f ms, f3 %.2f ms\n",
            ms[["C"]], ms[["f1"]], ms[["f3"]]))
cat(sprintf("calls implied by the body difference: %.0f (counted %d)\n",
            (ms[["f3"]] - ms[["f1"]]) * 1e3 /
              (body_us[["f3"]] - body_us[["f1"]]), n))
over <- ((ms[["f1"]] - ms[["C"]]) * 1e3 - n * body_us[["f1"]]) / n
cat(sprintf("costbo's time per closure call: %.2f us (%.1f ms of %.1f ms above C)\n",
            over, over * n / 1e3, ms[["f1"]] - ms[["C"]]))
cat(sprintf("ratio f1 / C: %.2f; without costbo's per-call time: %.2f\n",
            ms[["f1"]] / ms[["C"]], (ms[["f1"]] - over * n / 1e3) / ms[["C"]]))
