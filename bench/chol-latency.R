# Where gp_fit()'s uninterruptible time goes at n ~ 1000-1500 (issue 16):
# one LAPACK dpotrf (chol) and one dpotri (chol2inv) call, against one
# evaluation of the log likelihood with its gradient (kernel matrix, dpotrf,
# triangular solves, dpotri, gradient sums), the unit between which
# L-BFGS-B checks for interrupts.  Median of `reps` runs, in seconds.
#   R_LIBS=<lib> Rscript bench/chol-latency.R [reps]
suppressPackageStartupMessages(library(costbo))
args <- commandArgs(TRUE)
reps <- if (length(args)) as.integer(args[1L]) else 3L
cat(sprintf("LAPACK: %s\nBLAS: %s\n", La_library(), extSoftVersion()[["BLAS"]]))
res <- NULL
for (n in c(1000L, 1200L, 1500L)) {
  set.seed(1)
  X <- matrix(runif(2 * n), ncol = 2)
  y <- sin(9 * X[, 1]) + X[, 2]
  fit <- gp_fit(X, y, estimate = "fixed", lengthscale = c(0.2, 0.3),
                outputscale = 1, noise = 1e-2, lower = 0, upper = 1)
  K <- tcrossprod(fit$L)
  R <- chol(K)
  t_chol <- stats::median(replicate(reps, system.time(chol(K))[["elapsed"]]))
  t_inv <- stats::median(replicate(reps, system.time(chol2inv(R))[["elapsed"]]))
  t_lik <- stats::median(replicate(reps, system.time(
    costbo:::gp_lik_eval(fit, log(c(0.2, 0.3, 1, 1e-2, 0))))[["elapsed"]]))
  res <- rbind(res, data.frame(n = n, dpotrf = t_chol, dpotri = t_inv,
                               lik_and_gradient = t_lik))
}
print(res, digits = 3)
