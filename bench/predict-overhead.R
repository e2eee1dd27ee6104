# The R overhead of one small prediction: predict() of a 10-point GP fit in
# two dimensions at one point, CPU microseconds per call (5000 calls) and
# the checks of the fit it makes, for each build given, in one run.
#
#   Rscript bench/predict-overhead.R <lib before> <lib after>

args <- commandArgs(TRUE)
if (length(args) && args[1] == "worker") {
  suppressMessages(library(costbo))
  set.seed(1)
  X <- matrix(runif(20), 10)
  fit <- gp_fit(X, sin(5 * X[, 1]), lower = 0, upper = 1)
  x <- matrix(c(0.3, 0.4), 1)
  count <- new.env()
  count$n <- 0L
  suppressMessages(trace(costbo:::check_gp_object,
                         bquote(assign("n", get("n", .(count)) + 1L,
                                       .(count))),
                         print = FALSE, where = asNamespace("costbo")))
  invisible(predict(fit, x))
  suppressMessages(untrace(costbo:::check_gp_object,
                           where = asNamespace("costbo")))
  t <- system.time(for (i in 1:5000) predict(fit, x))[["user.self"]]
  cat(count$n, 1e6 * t / 5000, "\n")
  quit(save = "no")
}
self <- normalizePath(sub("--file=", "", grep("--file=", commandArgs(FALSE),
                                              value = TRUE)))
row <- function(lib) {
  out <- system2("Rscript", c(self, "worker"), env = paste0("R_LIBS=", lib),
                 stdout = TRUE)
  v <- as.numeric(strsplit(trimws(out[length(out)]), " +")[[1]])
  data.frame(build = basename(lib), checks = v[1], microseconds = v[2])
}
tab <- do.call(rbind, lapply(args, row))
print(tab, digits = 3, row.names = FALSE)
