# Time and fill distance of the minimax design (minimax_points(), the
# design of bo_optimize(design = "minimax")) in two builds: n = 9 points at
# d = 2 (paper 004's designs) and the loop's default 2 (d + 1) points at
# d = 5, 10, 15, 40, with the default reference set and restarts. Each
# build runs in a child Rscript (R_LIBS set to its library), which draws
# the design after set.seed(seed) and records its CPU time (user + system:
# less disturbed by other work on a shared machine than wall time). The
# fill distances of both designs are measured here, on one common
# reference set that neither build saw: 2^17 scrambled Sobol points (seed
# 20240 + d), with the 257^2 grid at d = 2 and the 2^d corners for
# d <= 15. Targets: d = 10 under 2 s, d = 40 under 15 s, fill distance at
# most 5% above the old build's.
#
#   Rscript bench/minimax.R <old-lib> <new-lib> [seeds] [results file]
#
# seeds: comma-separated (default 1); with several, the table shows the
# largest time and the mean fill distance per build. The results file
# defaults to bench/results-minimax.txt. The old build (before the C
# relocation) takes about 15 minutes of CPU per seed at d = 40.
source("bench/common.R")
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 2L) {
  stop("usage: Rscript bench/minimax.R <old-lib> <new-lib> [seeds] [file]")
}
libs <- c(old = normalizePath(args[1L]), new = normalizePath(args[2L]))
seeds <- if (length(args) > 2L) {
  as.integer(strsplit(args[3L], ",", fixed = TRUE)[[1L]])
} else 1L
out_file <- if (length(args) > 3L) args[4L] else "bench/results-minimax.txt"
cases <- data.frame(d = c(2L, 5L, 10L, 15L, 40L))
cases$n <- ifelse(cases$d == 2L, 9L, 2L * (cases$d + 1L))

# The child: every case and seed, the designs and CPU times into an .rds.
child <- tempfile(fileext = ".R")
writeLines(c(
  "a <- commandArgs(TRUE)",
  "suppressPackageStartupMessages(library(costbo))",
  "cases <- readRDS(a[1]); seeds <- as.integer(strsplit(a[2], ',')[[1]])",
  "out <- list()",
  "for (i in seq_len(nrow(cases))) for (s in seeds) {",
  "  set.seed(s)",
  "  t <- system.time(X <- minimax_points(cases$n[i], cases$d[i]))",
  "  out[[length(out) + 1L]] <- list(d = cases$d[i], n = cases$n[i],",
  "    seed = s, cpu = t[['user.self']] + t[['sys.self']],",
  "    x = unname(matrix(as.numeric(X), nrow(X))))",
  "}",
  "saveRDS(list(out = out, version = format(packageVersion('costbo')),",
  "  hash = tryCatch(substr(costbo_build()$source_hash, 1, 8),",
  "                  error = function(e) NA)), a[3])"),
  child)
case_file <- tempfile(fileext = ".rds")
saveRDS(cases, case_file)
rscript <- file.path(R.home("bin"), "Rscript")
runs <- lapply(names(libs), function(b) {
  res <- tempfile(fileext = ".rds")
  st <- system2(rscript, c(child, case_file, paste(seeds, collapse = ","),
                           res), env = paste0("R_LIBS=", libs[[b]]))
  if (st != 0L || !file.exists(res)) stop("the ", b, " build failed")
  readRDS(res)
})
names(runs) <- names(libs)

# The common reference set, and the fill distance on it (blocks of rows).
suppressPackageStartupMessages(library(costbo, lib.loc = libs[["new"]]))
eval_ref <- function(d) {
  set.seed(20240L + d)
  R <- sobol_points(2^17, d)
  if (d == 2L) {
    g <- seq(0, 1, length.out = 257L)
    R <- rbind(R, as.matrix(expand.grid(g, g)))
  }
  if (d <= 15L) R <- rbind(R, as.matrix(expand.grid(rep(list(c(0, 1)), d))))
  unname(R)
}
fill_on <- function(X, R, block = 8192L) {
  xx <- rowSums(X^2)
  worst <- 0
  for (b in seq(1L, nrow(R), by = block)) {
    Rb <- R[b:min(nrow(R), b + block - 1L), , drop = FALSE]
    D <- outer(rowSums(Rb^2), xx, "+") - 2 * tcrossprod(Rb, X)
    worst <- max(worst, max(apply(D, 1L, min)))
  }
  sqrt(max(worst, 0))
}

tab <- NULL
detail <- NULL
for (i in seq_len(nrow(cases))) {
  d <- cases$d[i]
  R <- eval_ref(d)
  per <- lapply(runs, function(r) {
    rr <- Filter(function(o) o$d == d, r$out)
    data.frame(seed = vapply(rr, `[[`, 0L, "seed"),
               cpu = vapply(rr, `[[`, 0, "cpu"),
               fill = vapply(rr, function(o) fill_on(o$x, R), 0))
  })
  detail <- rbind(detail, data.frame(
    d = d, n = cases$n[i], seed = per$old$seed, old_s = per$old$cpu,
    new_s = per$new$cpu, old_fill = per$old$fill, new_fill = per$new$fill,
    fill_ratio = per$new$fill / per$old$fill))
  t_old <- max(per$old$cpu)
  t_new <- max(per$new$cpu)
  f_old <- mean(per$old$fill)
  f_new <- mean(per$new$fill)
  limit <- c(`10` = 2, `40` = 15)[as.character(d)]
  target <- if (is.na(limit)) "fill <= 1.05 old" else
    sprintf("< %g s, fill <= 1.05 old", limit)
  ok <- f_new <= 1.05 * f_old && (is.na(limit) || t_new < limit)
  tab <- rbind(tab, bench_row(
    "minimax", sprintf("d = %d, n = %d", d, cases$n[i]), t_new,
    peer = "old build", peer_s = t_old, target = target, meets_target = ok,
    note = sprintf("fill %.4f (old %.4f, ratio %.3f)", f_new, f_old,
                   f_new / f_old)))
}

lines <- c(
  sprintf("bench/minimax.R: old build %s (%s), new build %s (%s); seeds %s",
          runs$old$hash, libs[["old"]], runs$new$hash, libs[["new"]],
          paste(seeds, collapse = ",")),
  bench_header(),
  "costbo_s: the new build's CPU seconds for one design (largest over the",
  "seeds), peer_s: the old build's, ratio: old / new; fill: the fill",
  "distance on the common reference set (mean over the seeds).",
  "",
  utils::capture.output(print(bench_format(tab), row.names = FALSE)),
  "",
  "per seed:",
  utils::capture.output(print(detail, digits = 4, row.names = FALSE)))
writeLines(lines)
writeLines(lines, out_file)
