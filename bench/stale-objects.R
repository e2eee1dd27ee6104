# Crashes on hand-altered fits (issue 16), counted in child processes.
# Every case of tests/testthat/helper-stale.R (a field of a continuous,
# finite-domain or multi-source fit altered: NULL, shortened, lengthened,
# character, NaN, out of range, ...; then each exported function that takes
# a fit called on it) runs in a child Rscript that records each outcome
# before the next case; when the child dies (segfault, abort), the case it
# was running is recorded as a crash, then re-run alone in a fresh child
# to confirm, and a new child resumes after it.
#   R_LIBS=<lib> Rscript bench/stale-objects.R [outfile.rds]
args <- commandArgs(TRUE)
helper <- normalizePath(file.path("tests", "testthat", "helper-stale.R"))
out_file <- if (length(args)) args[1L] else tempfile(fileext = ".rds")
log <- tempfile()
child <- tempfile(fileext = ".R")
writeLines(c(
  "a <- commandArgs(TRUE)",
  "suppressPackageStartupMessages(library(costbo))",
  "source(a[1])",
  "cs <- stale_cases()",
  "from <- as.integer(a[3]); to <- if (length(a) > 3) as.integer(a[4]) else length(cs)",
  "con <- file(a[2], open = 'a')",
  "for (i in seq.int(from, to)) {",
  "  cat(i, '\\tSTART\\n', file = con, sep = ''); flush(con)",
  "  o <- stale_outcome(cs[[i]])",
  "  cat(i, '\\t', gsub('[\\t\\n]', ' ', o), '\\n', file = con, sep = ''); flush(con)",
  "}",
  "close(con)"), child)
rscript <- file.path(R.home("bin"), "Rscript")
# A child that records nothing for `stall` seconds is hung: killed, and its
# case recorded as a hang.
stall <- 60
hung <- integer()
run_child <- function(from, to = NULL, file = log) {
  p <- processx::process$new(rscript, c(child, helper, file, from, to),
                             stdout = NULL, stderr = NULL)
  size <- -1
  last <- Sys.time()
  while (p$is_alive()) {
    Sys.sleep(0.2)
    s <- if (file.exists(file)) file.size(file) else 0
    if (s != size) {
      size <- s
      last <- Sys.time()
    } else if (difftime(Sys.time(), last, units = "secs") > stall) {
      p$kill()
      l <- readLines(file)
      hung <<- c(hung, as.integer(sub("\t.*", "", l[length(l)])))
    }
  }
}
n <- local({
  suppressPackageStartupMessages(library(costbo))
  source(helper)
  length(stale_cases())
})
labels <- local({ source(helper); vapply(stale_cases(), `[[`, "", "label") })
outcome <- rep(NA_character_, n)
from <- 1L
t0 <- proc.time()[["elapsed"]]
while (from <= n) {
  unlink(log)
  run_child(from)
  lines <- if (file.exists(log)) readLines(log) else character()
  parts <- strsplit(lines, "\t", fixed = TRUE)
  idx <- as.integer(vapply(parts, `[`, "", 1L))
  val <- vapply(parts, function(p) paste(p[-1L], collapse = "\t"), "")
  done <- val != "START"
  outcome[idx[done]] <- val[done]
  last <- if (length(idx)) max(idx) else from - 1L
  if (last >= n && all(!is.na(outcome[from:n]))) break
  # the child died in case `crashed`: confirm it alone
  crashed <- if (length(idx) && !done[length(done)]) idx[length(idx)] else from
  if (crashed %in% hung) {
    outcome[crashed] <- "hang"
    from <- crashed + 1L
    next
  }
  alone <- tempfile()
  run_child(crashed, crashed, alone)
  a <- if (file.exists(alone)) readLines(alone) else character()
  outcome[crashed] <- if (length(a) == 2L) {
    paste("crash in sequence only; alone:", sub("^[0-9]+\t", "", a[2L]))
  } else "crash"
  from <- crashed + 1L
}
elapsed <- proc.time()[["elapsed"]] - t0
cat_of <- ifelse(outcome == "crash", "crash",
          ifelse(grepl("^crash in sequence", outcome), "crash (sequence only)",
          sub(":.*", "", outcome)))
res <- data.frame(label = labels, outcome = outcome, category = cat_of)
saveRDS(res, out_file)
cat(sprintf("%d cases in %.0f s\n", n, elapsed))
print(table(res$category))
type <- sub("\\$.*", "", res$label)
print(table(type, res$category))
