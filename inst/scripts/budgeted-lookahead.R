# Budgeted multi-step lookahead against myopic cost-aware policies
# (Astudillo et al. 2021, Fig. 4 and 5): log10 simple regret against the
# budget spent on Dropwave, Alpine1, Shekel5 and Ackley with the cosine
# log-cost family (a new cost function per replication, drawn from the
# replication number modulo 20 as in the reference code; costs measured and
# learned by a GP on the log cost), initial design 2(d + 1) Sobol points
# (free), budgets 40, 60, 80, 60.
#
# Usage, from the package's source directory with costbo installed:
#   Rscript inst/scripts/budgeted-lookahead.R [reduced|quality|full] [backend] [workers]
#     [replications] [file] [default|reference]
# backend: "sequential" (default), "parallel" (workers: local workers) or
# "future" (the plan set in ~/.future.R or by R_FUTURE_PLAN, e.g. a Slurm
# plan of future.batchtools).
#
# Full scale (the paper's protocol): 200 replications (100 for Ackley) of
# EI, EI-PU, EI-PU-CC, the 4-step path variant 4-B-MS-EI_p and the 4-step
# tree with (4, 4, 2) fantasies 4-B-MS-EI.
# Quality scale (the cached result in inst/extdata/budgeted-lookahead.rds):
# replications 1 to 40 of all five policies, the full tree included, in
# four parts of 10 run two at a time:
#   Rscript inst/scripts/budgeted-lookahead.R quality sequential NA 1:10 part1.rds
#   Rscript inst/scripts/budgeted-lookahead.R quality sequential NA 11:20 part2.rds
# and so on, and the same for replications 1 to 20 with the reference
# models (6th argument `reference`); then
#   Rscript inst/scripts/budgeted-lookahead.R join part1.rds ... part4.rds \
#     --reference ref1.rds ref2.rds
# writes the cache (the parts are joined with c()). Reduced scale:
# replications 1 to 6 of the four policies without the full tree.
#
# Models: "default" (costbo's GPs: Matern 5/2 by MAP with the noise variance
# estimated) or "reference" (the reference code's: the noise variance of
# the objective's and the log cost's GPs held in [1e-4, 1e-3] of the
# standardized scale, so that they interpolate the deterministic test
# functions). The cache's main benchmark uses the default models; its
# `reference_model` element holds the final regrets of replications 1 to
# 20 with the reference models.
#
# Run time, measured at the quality scale (two processes on a 2-core
# machine shared with other jobs, about 28 minutes of wall time per part;
# with the reference models the full tree takes about twice as long):
# mean seconds per run of EI, EI-PU and EI-PU-CC 0.4-1.9 s, of
# 4-B-MS-EI_p 0.7 s (Dropwave) to 4.4 s (Shekel5), of the full tree
# 4-B-MS-EI 7.6 s (Dropwave), 75 s (Alpine1), 27 s (Shekel5), 32 s
# (Ackley); one replication of the five policies on the four problems
# takes about 2.8 minutes. The full scale (200 replications, 100 for
# Ackley) takes about 8 core-hours, 15 minutes on 32 cores with backend
# "parallel" or "future".
#
# Writes inst/extdata/budgeted-lookahead.rds: a list with `benchmark` (the
# bo_benchmark, evaluations and cost curves; use as.data.frame(), summary()
# and plot()), `scale`, `date`, `version` and `seconds` (wall time).
library(costbo)

args <- commandArgs(trailingOnly = TRUE)
scale <- if (length(args) >= 1L) args[1L] else "reduced"
scale <- match.arg(scale, c("reduced", "quality", "full", "join"))
if (scale == "join") {
  # the cache from the parts: the default models' benchmark, and the final
  # log10 regrets of the reference models' run
  files <- args[-1L]
  k <- match("--reference", files)
  if (is.na(k)) stop("join: give the parts, then --reference and its parts")
  main <- lapply(files[seq_len(k - 1L)], readRDS)
  refs <- lapply(files[-seq_len(k)], readRDS)
  rbm <- Reduce(c, lapply(refs, `[[`, "benchmark"))
  df <- as.data.frame(rbm)
  final <- df[df$cost == ave(df$cost, df$problem, FUN = max),
              c("problem", "policy", "rep", "log10_regret")]
  rownames(final) <- NULL
  # the summed wall times of the parts
  wall <- function(parts) sum(vapply(parts, `[[`, 0, "seconds"))
  saveRDS(list(benchmark = Reduce(c, lapply(main, `[[`, "benchmark")),
               scale = "quality", model = list(),
               reference_model = list(model = refs[[1L]]$model, final = final,
                                      seconds = wall(refs)),
               date = format(Sys.Date()),
               version = as.character(utils::packageVersion("costbo")),
               seconds = wall(main)),
          file.path("inst", "extdata", "budgeted-lookahead.rds"),
          compress = "xz")
  quit(save = "no")
}
backend <- if (length(args) >= 2L) args[2L] else "sequential"
workers <- if (length(args) >= 3L && args[3L] != "NA") as.integer(args[3L]) else NULL
# "quality": the replications given as the 4th argument (default 1:20; an
# even number of them),
# saved after every replication to the file given as the 5th argument, so
# that a stopped run keeps what it finished; parts run separately are
# joined with c() (each replication has its own random stream).
quality_reps <- if (length(args) >= 4L) eval(parse(text = args[4L])) else 1:20
out <- if (scale == "quality" && length(args) >= 5L) args[5L] else
  file.path("inst", "extdata", "budgeted-lookahead.rds")

# test_problem() gives each problem the paper's domain, its budget (20 d)
# and, from the replication number, its cosine cost.
problem <- function(name) function(r) test_problem(name, seed = r)
problems <- list(Dropwave = problem("dropwave"), Alpine1 = problem("alpine1"),
                 Shekel5 = problem("shekel5"), Ackley = problem("ackley"))
policies <- list(EI = policy_ei(), `EI-PU` = policy_ei_pu(),
                 `EI-PU-CC` = policy_ei_pu_cc(),
                 `4-B-MS-EI_p` = policy_bmsei(steps = 4, path = TRUE))
if (scale != "reduced") {
  policies$`4-B-MS-EI` <- policy_bmsei(steps = 4, fantasies = c(4, 4, 2))
}

model_name <- if (length(args) >= 6L) args[6L] else "default"
model_name <- match.arg(model_name, c("default", "reference"))
band <- list(noise_floor = 1e-4, noise_ceiling = 1e-3)
model <- if (model_name == "reference") c(band, list(cost = band)) else list()

run <- function(problems, reps) {
  bo_benchmark(problems, policies, reps = reps, backend = backend,
               workers = workers, seed = 1L, model = model, progress = TRUE)
}
save_cache <- function(bm, seconds) {
  # Keep the cache small: the curves are rebuilt from the evaluations.
  saveRDS(list(benchmark = bm, scale = scale, model = model,
               date = format(Sys.Date()),
               version = as.character(utils::packageVersion("costbo")),
               seconds = seconds),
          out, compress = "xz")
}
started <- Sys.time()
bm <- if (scale == "quality") {
  # two replications at a time (a single number would be a count)
  acc <- NULL
  for (k in seq(1L, length(quality_reps), by = 2L)) {
    part <- run(problems, quality_reps[k:(k + 1L)])
    acc <- if (is.null(acc)) part else c(acc, part)
    save_cache(acc, as.double(difftime(Sys.time(), started, units = "secs")))
  }
  acc
} else if (scale == "full") {
  c(run(problems[c("Dropwave", "Alpine1", "Shekel5")], 200L),
    run(problems["Ackley"], 100L))
} else {
  run(problems, 6L)
}
seconds <- as.double(difftime(Sys.time(), started, units = "secs"))

save_cache(bm, seconds)

print(bm)
print(summary(bm))
cat(sprintf("wall time %.1f min; core time of the runs %.1f min\n",
            seconds / 60, sum(bm$replications$seconds) / 60))
