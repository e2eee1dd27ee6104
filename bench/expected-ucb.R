# The expected UCB of control sets (paper 003's ETC and UCB-CVS policies):
# CPU seconds of acq_expected_ucb() with gradients at 50 partial queries,
# 256 samples and n = 100 and 450 observations (5 calls), and of one
# ETC-Ada run of 200 evaluations on Hartmann-3 with cheap costs (the
# study's setting), for each build given, in one run, with the MD5 of each
# result (the same digest: the same results to the last bit).
#
#   Rscript bench/expected-ucb.R <lib before> <lib after>

args <- commandArgs(TRUE)
if (length(args) && args[1] == "worker") {
  suppressMessages(library(costbo))
  digest <- function(x) {
    f <- tempfile()
    writeBin(serialize(x, NULL, version = 2L), f)
    unname(tools::md5sum(f))
  }
  if (args[2] == "eucb") {
    n <- as.integer(args[3])
    set.seed(1)
    X <- matrix(runif(3 * n), ncol = 3)
    fit <- gp_fit(X, sin(5 * X[, 1]) + X[, 2] * X[, 3], lower = 0, upper = 1,
                  kernel = "se", estimate = "fixed", lengthscale = 0.1,
                  outputscale = 1, noise = 1e-4)
    Z <- matrix(runif(3 * 256), ncol = 3)
    x <- matrix(runif(100), ncol = 2)
    t0 <- proc.time()[["user.self"]]
    for (k in 1:5) {
      r <- acq_expected_ucb(fit, x, controlled = c(1, 3), samples = Z,
                            grad = TRUE)
    }
    cat(proc.time()[["user.self"]] - t0, digest(r), "\n")
  } else {
    prob <- list(p = function(r) {
      test_problem_cvs("hartmann3", cost_set = "cheap", variance = 0.02,
                       seed = r, budget = 50)
    })
    t0 <- proc.time()[["user.self"]]
    bm <- bo_benchmark(prob, list(etc = policy_etc(plays = "adaptive",
                                                   beta = 2,
                                                   n_samples = 256L)),
                       reps = 1L, n_init = 5L, seed = 1,
                       max_evaluations = 200L,
                       gp_args = list(kernel = "se", estimate = "fixed",
                                      lengthscale = 0.1, outputscale = 1,
                                      noise = 1e-4),
                       progress = FALSE)
    t1 <- proc.time()[["user.self"]] - t0
    rec <- bm$records[[1]]
    rec$seconds <- NULL
    cat(t1, digest(rec), "\n")
  }
  quit(save = "no")
}
self <- normalizePath(sub("--file=", "", grep("--file=", commandArgs(FALSE),
                                              value = TRUE)))
run <- function(lib, what, n = "") {
  out <- system2("Rscript", c(self, "worker", what, n),
                 env = paste0("R_LIBS=", lib), stdout = TRUE)
  strsplit(trimws(out[length(out)]), " +")[[1]]
}
cases <- list(c("eucb", "100"), c("eucb", "450"), c("etc_ada", ""))
rows <- lapply(cases, function(cs) {
  b <- run(args[1], cs[1], cs[2])
  a <- run(args[2], cs[1], cs[2])
  data.frame(case = paste(cs, collapse = " "), before = as.numeric(b[1]),
             after = as.numeric(a[1]),
             ratio = as.numeric(a[1]) / as.numeric(b[1]),
             same_result = identical(a[2], b[2]))
})
print(do.call(rbind, rows), digits = 3, row.names = FALSE)
