# Cost of one Pandora's Box Gittins index (PBGI) value against one expected
# improvement (EI) value in the vectorized closed form acq_closed_form().
#
# Run from the repository root after installing costbo:
#   Rscript bench/pbgi.R
# To compare two builds, run the same script with each library in its own
# process, e.g.
#   R_LIBS=/path/to/lib-before Rscript bench/pbgi.R
#   R_LIBS=/path/to/lib-after  Rscript bench/pbgi.R
# Prints the CPU seconds of 10^6 PBGI values and of 10^6 EI values (best of
# three runs each, the same inputs for both) and their ratio PBGI / EI
# (target: <= 2), without and with the partial derivatives, for
#   typical  m ~ N(0, 1), s = exp(U(-6, 1)), a known cost in [1, 21] and
#            lambda = 1e-3 (paper 002's cost model and a mid-range lambda),
#            EI with best = 0.5;
#   wide     lambda c / s = 10^U(-300, 6), s = 1: the whole range the
#            index solver must cover (EI at u = (m - best) / s ~ N(0, 3^2));
#   unknown  as typical, but PBGI-U with a lognormal cost: log c ~
#            N(log 5 + 0.5 z, 0.3^2), z ~ N(0, 1).
# BENCH_N sets the number of values (default 1e6).

source("bench/common.R")
suppressPackageStartupMessages(library(costbo))

pbgi_inputs <- function(n, case) {
  set.seed(1)
  if (case == "typical") {
    list(m = rnorm(n), s = exp(runif(n, -6, 1)), cost = 1 + 20 * runif(n),
         lambda = 1e-3, best = 0.5)
  } else if (case == "wide") {
    list(m = rnorm(n), s = rep(1, n), cost = 10^runif(n, -300, 6),
         lambda = 1, best = 3 * rnorm(n))
  } else {
    list(m = rnorm(n), s = exp(runif(n, -6, 1)), cost = NULL,
         log_cost_mean = log(5) + 0.5 * rnorm(n), log_cost_sd = 0.3,
         lambda = 1e-3, best = 0.5)
  }
}

best_of <- function(expr, reps = 3L) {
  expr <- substitute(expr)
  env <- parent.frame()
  min(vapply(seq_len(reps), function(i) {
    system.time(eval(expr, env))[["user.self"]]
  }, numeric(1)))
}

bench_pbgi <- function(n = 1e6) {
  cat("== PBGI against EI in acq_closed_form(),", format(n, big.mark = ","),
      "values\n")
  cat(paste(bench_header(), collapse = "\n"), "\n")
  cat("costbo library:", dirname(find.package("costbo")), "\n\n")
  rows <- list()
  for (case in c("typical", "wide", "unknown")) {
    a <- pbgi_inputs(n, case)
    for (grad in c(FALSE, TRUE)) {
      t_pbgi <- best_of(acq_closed_form(
        "pbgi", a$m, a$s, cost = a$cost, log_cost_mean = a$log_cost_mean,
        log_cost_sd = a$log_cost_sd, lambda = a$lambda, grad = grad))
      t_ei <- best_of(acq_closed_form("ei", a$m, a$s, best = a$best,
                                      grad = grad))
      rows[[length(rows) + 1L]] <- data.frame(
        case = case, grad = grad, pbgi_s = t_pbgi, ei_s = t_ei,
        ratio = t_pbgi / t_ei, meets = if (t_pbgi <= 2 * t_ei) "yes" else "NO")
    }
  }
  tab <- do.call(rbind, rows)
  print(format(tab, digits = 3), row.names = FALSE)
  cat("\nratio = PBGI seconds / EI seconds; target <= 2\n")
  invisible(tab)
}

if (sys.nframe() == 0L) {
  bench_pbgi(as.numeric(Sys.getenv("BENCH_N", "1e6")))
}
