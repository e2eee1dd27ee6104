# The fuzz of tests/testthat/helper-fuzz.R, classified (issues 16 and 56).
#   R_LIBS=<lib> COSTBO_SRC=<source tree> Rscript bench/fuzz-report.R [out.rds]
# runs every fuzzed call of the build installed in <lib> with the fuzz of
# <source tree> (default "."), in a child process: a call that kills it is
# a crash, one that outlives `timeout` (300 s for the whole child) a hang,
# and the child is rerun without it.
#
# Categories (fuzz_category() in the helper):
#   crash           the process died
#   hang            over the per-call time limit (20 s), or killed
#   internal        an R-internal error, or an error of C not re-signalled
#   unnamed         a costbo_error whose message names no argument
#   wrong call      a costbo_error reporting another call than the user's
#   wrong argument  a costbo_error naming arguments, not the malformed one
#                   (a message naming both members of a pair counts as
#                   naming the right one)
#   clean           a costbo_error naming the malformed argument
#   silently wrong  returned, but
#                   - a result fails its mechanical check
#                     (fuzz_result_check()): a non-finite number from
#                     acq_closed_form(), acq_evaluate(), acq_expected_ucb(),
#                     acq_maximize(), gauss_hermite(), sobol_points(),
#                     sobol_normal(), minimax_points(), predict() or
#                     simulate(); a wrong shape (not one value per point,
#                     not n x d points, not n Gauss-Hermite nodes, not nsim
#                     samples); a value out of range (EI < 0, sd < 0, points
#                     outside the unit cube or [lower, upper], weights < 0
#                     or not summing to 1); a fitted GP (gp_fit(),
#                     gp_fit_miso(), gp_condition(), gp_finite()) whose
#                     predict() at a point of its domain is not finite or
#                     whose log-likelihood is not finite; a cost function
#                     (cost_linear(), cost_cosine()) that is not one positive
#                     finite number at the corners and the centre of its
#                     box; a prior sample (gp_prior_sample()) not finite at
#                     the centre of the cube; a problem (bo_problem(),
#                     test_problem*()) whose known cost is not one positive
#                     finite number at the centre of its box;
#                   - or a non-finite value (NA, NaN, Inf, -Inf) was accepted
#                     by an argument not listed in fuzz_nonfinite_ok (which
#                     says why those take one; the report lists them)
#   fine            returned, and passes the checks
# Cases of the unclear and silently-wrong categories that are right are
# listed, each with its reason, in fuzz_right (the helper); the report
# prints every such case with its reason, and the others as "unexplained".
suppressPackageStartupMessages(library(costbo))
args <- commandArgs(trailingOnly = TRUE)
src <- Sys.getenv("COSTBO_SRC", ".")
source(file.path(src, "tests/testthat/helper-fuzz.R"))

if (length(args) >= 2L && args[1L] == "--child") {
  # the child: fuzz, skipping the calls that killed earlier children
  dir <- args[2L]
  skip <- character()
  if (file.exists(file.path(dir, "skip"))) {
    k <- read.delim(file.path(dir, "skip"), header = FALSE,
                    colClasses = "character")
    skip <- stats::setNames(k[[2L]], k[[1L]])
  }
  res <- fuzz_run(skip = skip, trace = file.path(dir, "trace"))
  saveRDS(res, file.path(dir, "res.rds"))
  quit(save = "no")
}

dir <- tempfile("fuzz-report")
dir.create(dir)
t0 <- proc.time()[["elapsed"]]
killed <- character()  # outcome by key
repeat {
  status <- system2("timeout", c("300", file.path(R.home("bin"), "Rscript"),
                                 "bench/fuzz-report.R", "--child", dir),
                    stdout = FALSE, stderr = FALSE,
                    env = c(paste0("COSTBO_SRC=", src),
                            paste0("R_LIBS=", Sys.getenv("R_LIBS"))))
  if (file.exists(file.path(dir, "res.rds"))) break
  key <- readLines(file.path(dir, "trace"))
  if (key %in% names(killed)) stop("the child died twice at ", key)
  killed[key] <- if (identical(status, 124L)) "hang" else "crash"
  cat(sprintf("%s at %s\n", killed[key], key))
  writeLines(paste(names(killed), killed, sep = "\t"),
             file.path(dir, "skip"))
}
res <- readRDS(file.path(dir, "res.rds"))
pt <- proc.time()
cat(sprintf("%d calls in %.1f s (%.1f s of CPU)\n\n", nrow(res),
            pt[["elapsed"]] - t0, pt[["user.child"]] + pt[["sys.child"]]))
cats <- c("crash", "hang", "internal", "unnamed", "wrong call",
          "wrong argument", "silently wrong", "clean", "fine")
counts <- table(factor(res$category, levels = cats))
print(counts)

bad <- res[!res$category %in% c("clean", "fine"), ]
if (nrow(bad)) {
  cat("\nby function:\n")
  tab <- table(bad$fun, factor(bad$category, levels = cats))
  print(tab[, colSums(tab) > 0L, drop = FALSE])
}
reason <- vapply(seq_len(nrow(bad)), function(i) {
  fuzz_right_reason(bad$fun[i], bad$arg[i], bad$value[i], bad$category[i])
}, "")
cat(sprintf("\ncases (%d; %d with a reason they are right):\n", nrow(bad),
            sum(nzchar(reason))))
what <- ifelse(nzchar(bad$check), bad$check, bad$message)
for (i in seq_len(nrow(bad))) {
  cat(sprintf("%s(%s = %s) [%s]: %s\n    %s\n", bad$fun[i], bad$arg[i],
              bad$value[i], bad$category[i], what[i],
              if (nzchar(reason[i])) paste("right:", reason[i]) else
                "unexplained"))
}
# the non-finite values accepted on purpose, each with its reason
nf <- res[res$category == "fine" &
            res$value %in% c("NA", "NA_real_", "NaN", "Inf", "-Inf"), ]
if (nrow(nf)) {
  key <- unique(nf[, c("fun", "arg")])
  cat(sprintf("\nnon-finite values accepted on purpose (%d calls):\n",
              nrow(nf)))
  for (i in seq_len(nrow(key))) {
    v <- nf$value[nf$fun == key$fun[i] & nf$arg == key$arg[i]]
    cat(sprintf("%s(%s = %s): %s\n", key$fun[i], key$arg[i],
                paste(v, collapse = ", "),
                fuzz_nonfinite_reason(key$fun[i], key$arg[i])))
  }
}
if (length(args)) saveRDS(res, args[1L])
