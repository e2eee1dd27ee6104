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

# policy, cost set, part of the recipe, and a cap on the evaluations: ETC-Ada
# under cheap costs (about 490 evaluations, over 20 minutes) is timed on its
# first 250 evaluations and extrapolated from the recorded policy time of
# exploring step (quadratic in the number of observations), scaled from
# wall time to CPU time by the measured part.
cells <- list(
  list("psq_v002", "UCB-PSQ", "cheap", NULL),
  list("psq_v002", "TS-PSQ", "cheap", NULL),
  list("etc50_v002", "ETC-50", "cheap", NULL),
  list("etc100_h3_v002_r01_05", "ETC-100", "cheap", NULL),
  list("etcada_h3_v002_r01_02", "ETC-Ada", "moderate", NULL),
  list("etcada_h3_v002_r01_02", "ETC-Ada", "expensive", NULL),
  list("etcada_h3_v002_r01_02", "ETC-Ada", "cheap", 250L),
  list("etc50_v002", "ETC-50", "moderate", NULL),
  list("etc100_h3_v002_r01_05", "ETC-100", "moderate", NULL),
  list("etc100_h3_v002_r01_05", "ETC-100", "expensive", NULL))
if (length(args)) cells <- Filter(function(c) c[[2L]] %in% args, cells)
out <- file.path("studies", "control-sets", "timings.csv")
dir.create(dirname(out), recursive = TRUE, showWarnings = FALSE)
for (c in cells) {
  rec <- parts[[c[[1L]]]]
  prob <- sprintf("Hartmann-3, %s, variance 0.02", c[[3L]])
  pr <- study_eval(rec$problems)[[prob]](1L)
  pol <- study_eval(rec$policies)[[c[[2L]]]]
  t0 <- sum(proc.time()[c("user.self", "sys.self")])
  run <- bo_optimize(pr, pol, n_init = rec$n_init, seed = 1L,
                     gp_args = rec$model, max_evaluations = c[[4L]],
                     progress = FALSE)
  secs <- sum(proc.time()[c("user.self", "sys.self")]) - t0
  df <- as.data.frame(run)
  est <- secs
  if (!is.null(c[[4L]])) {
    # extrapolate the rest of the run: the exploring steps left (cheap
    # costs: floor(4 / c) plays of the cost groups 0.01 and 0.1) and the
    # commit steps, from the measured step times of each kind
    bo <- df[df$phase == "bo", ]
    n_obs <- which(df$phase == "bo") - 1L
    step <- bo$fit_time + bo$policy_time + bo$eval_time
    kind <- ifelse(bo$control_set <= 3L, "single",
                   ifelse(bo$control_set <= 6L, "pair", "full"))
    fit <- stats::lm(step ~ 0 + I(n_obs^2) + n_obs, subset = kind == "single")
    scale_pair <- 2.8 # a pair's three maximizations cost 2.8 times a singleton's (mc-check.rds)
    left_single <- 400L - sum(kind == "single")
    n_single <- nrow(df) + seq_len(left_single) - 1L
    n_pair <- nrow(df) + left_single + seq_len(40L) - 1L
    pred <- function(n) stats::predict(fit, data.frame(n_obs = n))
    left <- sum(pred(n_single)) + scale_pair * sum(pred(n_pair)) +
      42 * max(step[kind == "full"], mean(step[kind == "single"]), 0)
    # the step times are wall time (under load): scale them to CPU time by
    # the measured part
    est <- secs + left * secs / sum(step)
  }
  row <- data.frame(policy = c[[2L]], problem = prob, cpu_seconds = secs,
                    evaluations = nrow(df), capped = !is.null(c[[4L]]),
                    cpu_seconds_whole_run = est,
                    regret = utils::tail(df$simple_regret, 1L),
                    n_samples_etc = n_samples_etc,
                    build = substr(costbo_build()$source_hash, 1L, 8L))
  print(row, row.names = FALSE)
  utils::write.table(row, out, sep = ",", append = file.exists(out),
                     col.names = !file.exists(out), row.names = FALSE)
}
