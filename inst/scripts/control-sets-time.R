# Single-replication run times of the control-sets study (paper 003): CPU
# seconds of one replication (seed 1, replication 1 of the study's recipes)
# per policy and cost set, on Hartmann-3 at variance 0.02, the most costly
# cells first. Quoted in the header of inst/scripts/control-sets.R.
#
# Usage, from the package's source directory with costbo installed:
#   Rscript inst/scripts/control-sets-time.R [<policy> ...]
# appends one line per cell to studies/control-sets/timings.csv (policy,
# problem, CPU seconds, evaluations, build).

script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                   value = TRUE))
args <- commandArgs(trailingOnly = TRUE)
# the study's recipes, without running its command line
src <- readLines(file.path(dirname(script), "control-sets.R"))
src <- src[seq_len(grep("^study_main\\(", src) - 1L)]
commandArgs <- function(trailingOnly = FALSE) {
  if (trailingOnly) character() else paste0("--file=", script)
}
eval(parse(text = src))
rm(commandArgs)

cells <- list(
  list("etcada_h3_v002_r01_02", "ETC-Ada", "cheap"),
  list("psq_v002", "UCB-PSQ", "cheap"),
  list("psq_v002", "TS-PSQ", "cheap"),
  list("etc50_v002", "ETC-50", "cheap"),
  list("etc100_h3_v002_r01_05", "ETC-100", "cheap"),
  list("etcada_h3_v002_r01_02", "ETC-Ada", "moderate"),
  list("etc100_h3_v002_r01_05", "ETC-100", "moderate"),
  list("etc100_h3_v002_r01_05", "ETC-100", "expensive"),
  list("etcada_h3_v002_r01_02", "ETC-Ada", "expensive"))
if (length(args)) cells <- Filter(function(c) c[[2L]] %in% args, cells)
out <- file.path("studies", "control-sets", "timings.csv")
dir.create(dirname(out), recursive = TRUE, showWarnings = FALSE)
for (c in cells) {
  rec <- parts[[c[[1L]]]]
  prob <- sprintf("Hartmann-3, %s, variance 0.02", c[[3L]])
  probs <- study_eval(rec$problems)[prob]
  pols <- study_eval(rec$policies)[c[[2L]]]
  t0 <- sum(proc.time()[c("user.self", "sys.self")])
  bm <- bo_benchmark(probs, pols, reps = 1L, seed = rec$seed,
                     n_init = rec$n_init, model = rec$model, progress = FALSE)
  secs <- sum(proc.time()[c("user.self", "sys.self")]) - t0
  row <- data.frame(policy = c[[2L]], problem = prob, cpu_seconds = secs,
                    elapsed = bm$replications$seconds,
                    evaluations = bm$replications$n_evaluations,
                    regret = bm$replications$regret,
                    n_samples_etc = n_samples_etc,
                    build = substr(costbo_build()$source_hash, 1L, 8L))
  print(row, row.names = FALSE)
  utils::write.table(row, out, sep = ",", append = file.exists(out),
                     col.names = !file.exists(out), row.names = FALSE)
}
