# Does the Monte Carlo sample count of the expected UCB change the control
# set the policies choose? The fixed-state check behind the sample count of
# inst/scripts/control-sets.R (paper 003, Tay et al. 2023, whose App. C
# approximates every expectation with 1024 samples).
#
# Usage, from the package's source directory with costbo installed:
#   Rscript inst/scripts/control-sets-mc.R [--seeds 1,2] [--large 200]
# (default: seed 1 and n = 100 for the large states)
# writes studies/control-sets/mc-check.rds (the decisions, the table below
# and the build of costbo that made them) and prints the table.
#
# The only control-set decision of the study's policies that depends on the
# sample count is the exploring step of ETC (policy_etc(): the set of
# largest maximized expected UCB within a cost group; the groups of the 3-D
# problems are the singletons {1}, {2}, {3} and the pairs {1, 2}, {1, 3},
# {2, 3}). UCB-PSQ, TS-PSQ and the commit phase of ETC play the full control
# set, whose UCB needs no expectation.
#
# Fixed states: GP posteriors (the study's fixed hyperparameters) after the
# first n = 5, 20, 50 observations (and `--large` under cheap costs, where
# ETC-Ada explores for about 440 steps) of an ETC-Ada run (32 samples) on
# both objectives, all three cost sets, the three variances and `--seeds`
# (the cost set changes the run, not the initial design: n = 5 is one state
# per objective, variance and seed). In every state both decisions are taken
# with 1024 samples and with 16, 32, 64, 128 and 256 (the first rows of one
# scrambled Sobol sequence of each size, drawn from the same seed, as the
# policy draws them; the maximizer's raw points from one fixed seed for
# every count), and twice more with 1024 samples, with other samples and
# with other raw points of the maximizer: how often the paper's own count
# disagrees with itself. A decision differs when the chosen set is not the
# 1024-sample choice; its gap is the 1024-sample value of the 1024-sample
# choice minus that of the chosen set (objective units; 0 when they agree),
# next to the margin of the 1024-sample choice over the runner-up.
#
# Measured (2 cores, the other busy): see the header of control-sets.R,
# which quotes the table.

script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                   value = TRUE))
suppressMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  k <- match(paste0("--", name), args)
  if (is.na(k)) default else as.integer(strsplit(args[k + 1L], ",")[[1L]])
}
seeds <- opt("seeds", 1L)
large <- opt("large", 100L)

model <- list(kernel = "se", estimate = "fixed", lengthscale = 0.1,
              outputscale = 1, noise = 1e-4)
beta <- 2
n_raw <- 100L # the study's maximizer (policy_etc()'s defaults)
n_starts <- 4L
counts <- c(16L, 32L, 64L, 128L, 256L)
groups <- list(singletons = 1:3, pairs = 4:6)

# the state after the first n observations of a run, its GP refitted
state_at <- function(run, n) {
  s <- run
  k <- seq_len(n)
  s$X <- run$X[k, , drop = FALSE]
  s$value <- run$value[k]
  s$status <- run$status[k]
  s$models$f <- NULL
  costbo:::state_fit(s)
}

cpu <- function() sum(proc.time()[c("user.self", "sys.self")])

# both decisions of one state with Z (samples) and the maximizer's seed
decide <- function(state, Z, max_seed) {
  lapply(groups, function(g) {
    t0 <- cpu()
    set.seed(max_seed)
    a <- costbo:::cvs_all_sets(state, g, Z, beta, n_raw, n_starts)
    list(value = a$value, x = a$x, seconds = cpu() - t0)
  })
}

samples <- function(state, S, seed) {
  set.seed(seed)
  costbo:::cvs_init_samples(state, S)
}

grid <- expand.grid(seed = seeds, variance = c(0.02, 0.04, 0.08),
                    costs = c("cheap", "moderate", "expensive"),
                    name = c("gp_sample", "hartmann3"),
                    stringsAsFactors = FALSE)
t_start <- cpu()
rows <- list()
for (k in seq_len(nrow(grid))) {
  g <- grid[k, ]
  pr <- test_problem_cvs(g$name, cost_set = g$costs, variance = g$variance,
                         seed = g$seed, budget = 50)
  ns <- c(if (g$costs == "cheap") 5L, 20L, 50L,
          if (g$costs == "cheap") large)
  run <- bo_optimize(pr, policy_etc("adaptive", n_samples = 32L),
                     n_init = 5L, seed = g$seed, progress = FALSE,
                     gp_args = model, max_evaluations = max(ns))
  for (n in ns[ns <= nrow(run$X)]) {
    st <- state_at(run, n)
    ref <- decide(st, samples(st, 1024L, 1L), 11L)
    alt <- list(
      `1024, other samples` = decide(st, samples(st, 1024L, 2L), 11L),
      `1024, other raw points` = decide(st, samples(st, 1024L, 1L), 12L))
    for (S in counts) {
      alt[[as.character(S)]] <- decide(st, samples(st, S, 1L), 11L)
    }
    for (what in names(alt)) {
      for (gr in names(groups)) {
        r <- ref[[gr]]
        a <- alt[[what]][[gr]]
        i_ref <- which.max(r$value)
        i <- which.max(a$value)
        rows[[length(rows) + 1L]] <- data.frame(
          objective = g$name, costs = if (n == 5L) "any" else g$costs,
          variance = g$variance, seed = g$seed, n = n, group = gr,
          count = what, choice = groups[[gr]][i],
          choice_1024 = groups[[gr]][i_ref],
          gap = r$value[i_ref] - r$value[i],
          margin_1024 = diff(sort(r$value, decreasing = TRUE)[2:1]),
          x_shift = if (i == i_ref) max(abs(a$x[[i]] - r$x[[i]])) else NA_real_,
          seconds = a$seconds, seconds_1024 = r$seconds,
          stringsAsFactors = FALSE)
      }
    }
  }
  message(sprintf("%d/%d runs: %s, %s, %g, seed %d done (%.0f s)", k,
                  nrow(grid), g$name, g$costs, g$variance, g$seed,
                  cpu() - t_start))
}
decisions <- do.call(rbind, rows)

# one row per count: decisions, those that differ from 1024 samples, the
# largest gap, the states of n observations with a difference, and the mean
# core-seconds of one decision (three maximized expected UCBs)
levels_count <- c(as.character(counts), "1024, other samples",
                  "1024, other raw points")
table_mc <- do.call(rbind, lapply(levels_count, function(cn) {
  d <- decisions[decisions$count == cn, ]
  diff <- d$choice != d$choice_1024
  data.frame(count = cn, decisions = nrow(d), differ = sum(diff),
             share = mean(diff),
             max_gap = if (any(diff)) max(d$gap[diff]) else 0,
             margin_of_differing = if (any(diff)) max(d$margin_1024[diff]) else NA_real_,
             n_of_differing = if (any(diff)) paste(sort(unique(d$n[diff])), collapse = ",") else "",
             max_x_shift = max(d$x_shift, na.rm = TRUE),
             seconds_per_decision = mean(d$seconds),
             seconds_per_decision_n50 = mean(d$seconds[d$n == 50L]),
             stringsAsFactors = FALSE)
}))
table_mc <- rbind(table_mc, data.frame(
  count = "1024", decisions = nrow(decisions) / length(levels_count),
  differ = 0L, share = 0, max_gap = 0, margin_of_differing = NA_real_,
  n_of_differing = "", max_x_shift = 0,
  seconds_per_decision = mean(decisions$seconds_1024[decisions$count == "16"]),
  seconds_per_decision_n50 = mean(decisions$seconds_1024[
    decisions$count == "16" & decisions$n == 50L]),
  stringsAsFactors = FALSE))

dir.create(file.path("studies", "control-sets"), recursive = TRUE,
           showWarnings = FALSE)
out <- file.path("studies", "control-sets", "mc-check.rds")
saveRDS(list(table = table_mc, decisions = decisions, build = costbo_build(),
             settings = list(model = model, beta = beta, n_raw = n_raw,
                             n_starts = n_starts, counts = counts,
                             seeds = seeds, large = large),
             command = paste(c("Rscript", script, args), collapse = " "),
             core_seconds = cpu() - t_start,
             date = format(Sys.time(), tz = "UTC", usetz = TRUE)),
        out, compress = "xz")
options(width = 200)
print(table_mc, row.names = FALSE, digits = 3)
message(sprintf("%s written: %d decisions in %d states, %.0f core-seconds",
                out, nrow(decisions) / length(levels_count) ,
                nrow(decisions) / length(levels_count) / length(groups),
                cpu() - t_start))
