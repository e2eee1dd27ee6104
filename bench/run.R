# Every performance benchmark of costbo, and one summary table.
#
# Run from the repository root after installing costbo (R CMD INSTALL .):
#   Rscript bench/run.R
# It sources the scripts of bench/ (each also runs alone, e.g.
# Rscript bench/gp.R) and runs, in this order:
#   gp        bench/gp.R: GP fitting against DiceKriging, hetGP and laGP
#             (times, log likelihoods, likelihood evaluation against LAPACK,
#             warm refits, prediction, memory)
#   acq       bench/acquisition.R: one acquisition evaluation, one
#             maximization (against DiceOptim::max_EI), B-MS-EI trees and
#             rollout values and proposals
#   loop      bench/loop.R: overhead of bo_optimize()'s loop
#   policies  bench/policies.R: one proposal of every exported policy at
#             n = 20, 50, 100 and d = 2, 6 (control-set policies at d = 3)
#   scaling   bench/scaling.R: fit and maximization time for n up to 2000,
#             and the memory of a fit at n = 2000
# Each prints its own detailed tables, then run.R prints the summary table:
# one row per measurement, with costbo's time (seconds), the peer and its
# time where there is one, ratio = peer / costbo (> 1: costbo is faster),
# the target and whether it is met, and a note.
#
# Environment variables:
#   BENCH_QUICK=1          a reduced run (a few minutes): smaller n, fewer
#                          dimensions and policies (see each script)
#   BENCH_ONLY=gp,loop     run only these parts (gp, acq, loop, policies,
#                          scaling)
#   BENCH_OUT=file         also write the summary table to this file
#   BENCH_SAVE=file.rds    save the rows of the summary table (and write each
#                          part's detailed output to bench/results-<part>.txt)
#   BENCH_TABLES=a.rds,b.rds  run nothing: make the summary table from rows
#                          saved by earlier runs (e.g. parts run in two
#                          processes at once on a busy machine)
# A full run (neither BENCH_QUICK nor BENCH_ONLY) writes the summary table
# to bench/results.txt and each part's detailed output to
# bench/results-<part>.txt, unless BENCH_OUT is given; a reduced run writes
# nothing unless BENCH_OUT is given.  BENCH_BMSEI_D (e.g. 2 or 2,3) sets
# the dimensions of the B-MS-EI trees in bench/acquisition.R.
#
# Peer packages are optional: a missing one gives NA with the reason in the
# note. Install them with
#   install.packages(c("DiceKriging", "hetGP", "laGP", "DiceOptim"))
# Times are wall or CPU seconds on this machine (each script says which);
# on a shared machine they are noisy, and the ratios within one run are
# what transfers between machines.

if (!file.exists("bench/run.R")) stop("run bench/run.R from the repository root")
source("bench/common.R")
suppressPackageStartupMessages(library(costbo))

parts <- c(gp = "bench/gp.R", acq = "bench/acquisition.R",
           loop = "bench/loop.R", policies = "bench/policies.R",
           scaling = "bench/scaling.R")
runner <- c(gp = "bench_gp", acq = "bench_acquisition", loop = "bench_loop",
            policies = "bench_policies", scaling = "bench_scaling")
quick <- nzchar(Sys.getenv("BENCH_QUICK")) && Sys.getenv("BENCH_QUICK") != "0"
only <- Sys.getenv("BENCH_ONLY")
chosen <- if (nzchar(only)) trimws(strsplit(only, ",")[[1]]) else names(parts)
bad <- setdiff(chosen, names(parts))
if (length(bad)) {
  stop(sprintf("BENCH_ONLY: unknown part%s %s (known: %s)",
               if (length(bad) > 1L) "s" else "", paste(bad, collapse = ", "),
               paste(names(parts), collapse = ", ")))
}
full <- !quick && !nzchar(only)
out_file <- Sys.getenv("BENCH_OUT")
if (!nzchar(out_file) && full) out_file <- "bench/results.txt"
peers <- c("DiceKriging", "hetGP", "laGP", "DiceOptim")

save_file <- Sys.getenv("BENCH_SAVE")
from <- Sys.getenv("BENCH_TABLES")
started <- Sys.time()
tabs <- list()
if (nzchar(from)) {
  files <- trimws(strsplit(from, ",")[[1]])
  tabs <- lapply(files, readRDS)
  chosen <- character()
  only <- ""
}
for (p in chosen) {
  env <- new.env()
  sys.source(parts[[p]], envir = env)
  detail <- if (full || (nzchar(save_file) && !quick)) {
    sprintf("bench/results-%s.txt", p)
  } else NULL
  if (!is.null(detail)) {
    con <- file(detail, open = "wt")
    sink(con, split = TRUE)
  }
  t0 <- proc.time()[["elapsed"]]
  tab <- tryCatch(get(runner[[p]], envir = env)(quick = quick),
                  error = function(e) {
                    cat(sprintf("\n%s failed: %s\n", p, conditionMessage(e)))
                    bench_row(p, "(failed)", NA_real_,
                              note = conditionMessage(e))
                  })
  cat(sprintf("[%s: %.0f s]\n\n", p, proc.time()[["elapsed"]] - t0))
  if (!is.null(detail)) {
    sink()
    close(con)
  }
  tabs[[p]] <- tab
}
tab <- do.call(rbind, tabs)
rownames(tab) <- NULL
if (nzchar(save_file)) saveRDS(tab, save_file)

met <- tab$meets_target[!is.na(tab$meets_target)]
header <- c(
  "costbo performance benchmarks (bench/run.R)",
  sprintf("%s; %s%s", format(started, "%Y-%m-%d %H:%M %Z"),
          if (quick) "BENCH_QUICK=1; " else "",
          if (nzchar(from)) {
            sprintf("parts %s, from runs made at the same time",
                    paste(unique(tab$benchmark), collapse = ", "))
          } else if (nzchar(only)) paste0("BENCH_ONLY=", only) else "all parts"),
  bench_header(peers),
  if (nzchar(from)) "run time: see the runs that saved the rows" else
    sprintf("run time: %.1f min", as.numeric(difftime(Sys.time(), started,
                                                       units = "mins"))),
  "costbo_s, peer_s: seconds (see each script for wall or CPU time and replicates)",
  "ratio = peer_s / costbo_s (> 1: costbo is faster); NA: no peer, or the note says why",
  sprintf("targets met: %d of %d", sum(met), length(met)),
  "")
op <- options(width = 250)
body <- utils::capture.output(print(bench_format(tab), row.names = FALSE,
                                    right = FALSE))
options(op)
cat(header, body, sep = "\n")
if (nzchar(out_file)) {
  writeLines(c(header, body), out_file)
  cat(sprintf("\nSummary table written to %s\n", out_file))
}
