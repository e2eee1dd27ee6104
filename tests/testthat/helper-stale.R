# Fits altered field by field, and every exported function that takes a
# fit called on them (issue 16: "C never trusts a stale object"). Used by
# test-stale-objects.R and by bench/stale-objects.R, which counts the
# crashes of a build in child processes.

# The altered values of one field.
stale_alterations <- function(x, field) {
  vec_short <- function(x) if (length(x) > 0L) x[-length(x)] else 1
  out <- list(
    null = NULL,
    short = if (is.matrix(x)) {
      if (nrow(x) > 0L) x[-nrow(x), , drop = FALSE] else x[, -ncol(x), drop = FALSE]
    } else vec_short(x),
    long = if (is.matrix(x)) rbind(x, x, x + 0.25) else c(x, x, 1),
    char = if (length(x)) as.character(x) else "a",
    nan = { y <- x; if (length(y)) y[1L] <- NaN else y <- NaN; y },
    huge = { y <- x; if (length(y)) y[1L] <- -1e9 else y <- -1e9; y },
    big = { y <- x; if (length(y)) y[1L] <- 1e6 else y <- 1e6; y }
  )
  if (field == "Xs") {
    # one index or source label just out of range, in the last column
    y <- x
    y[1L, ncol(y)] <- y[1L, ncol(y)] + 3
    out$label <- y
    out$wide <- cbind(x, x[, 1L])
  }
  if (field == "L") {
    y <- x
    y[1L, 1L] <- 0
    out$zero_pivot <- y
  }
  out
}

# Does an alteration break the structure of a fit (sizes, types, indices,
# NaN, signs) rather than change one of its numbers to another valid one
# (a fit with other numbers is still a fit: its results are numbers)?
stale_structural <- function(type, field, alteration) {
  alteration %in% c("null", "short", "long", "nan", "wide", "zero_pivot") ||
    (alteration == "char" && field != "kernel") ||
    field %in% c("kcode", "d", "n", "n_sources") ||
    (field == "Xs" && (type == "finite" ||
                         (type == "miso" && alteration == "label"))) ||
    (alteration == "huge" && field %in% c("ysd", "hyp") && type != "finite")
}

# A list of cases: each a label and a function making one call.
stale_cases <- function() {
  set.seed(42)
  X <- matrix(stats::runif(16), ncol = 2)
  y <- sin(5 * X[, 1]) + X[, 2]
  fit_c <- gp_fit(X, y, lower = c(0, 0), upper = c(1, 1))
  fit_cost <- gp_fit(X, log(1 + X[, 1]), lower = c(0, 0), upper = c(1, 1))
  fit_f <- gp_finite(c(0, 0, 0), diag(3), x = 1, y = 0.5)
  fit_f2 <- gp_finite(c(0, 0, 0), diag(3), x = c(1, 3), y = c(0.5, -1))
  Xm <- matrix(stats::runif(24), ncol = 2)
  sm <- rep(0:1, 6)
  ym <- sin(6 * Xm[, 1]) + Xm[, 2] + 0.3 * sm * cos(3 * Xm[, 2])
  fit_m <- gp_fit_miso(Xm, sm, ym, lower = c(0, 0), upper = c(1, 1))
  nd <- rbind(c(0.2, 0.7), c(0.6, 0.1), c(0.9, 0.9))
  ndm <- cbind(nd, c(0, 1, 0))
  calls <- list(
    continuous = list(
      predict = function(g) predict(g, nd),
      predict_grad = function(g) predict(g, nd, grad = TRUE),
      simulate = function(g) simulate(g, 2, seed = 1, newdata = nd),
      gp_condition = function(g) gp_condition(g, nd[1, ], 0.3),
      acq_evaluate = function(g) acq_evaluate(g, nd, "ei", grad = TRUE),
      acq_maximize = function(g) acq_maximize(g, "ei", n_raw = 16, n_starts = 1),
      acq_argmax = function(g) acq_maximize(g, "ucb", candidates = nd),
      acq_expected_ucb = function(g) {
        acq_expected_ucb(g, c(0.3, 0.6), controlled = 1, samples = nd,
                         grad = TRUE)
      },
      cost_model_evaluate = function(g) {
        acq_evaluate(fit_c, nd, "ei_pu", cost_model = g, grad = TRUE)
      },
      cost_model_maximize = function(g) {
        acq_maximize(fit_c, "ei_pu_cc", cost_model = g, nu = 0.5, n_raw = 16,
                     n_starts = 1)
      },
      gp_fit_start = function(g) gp_fit(X, y, lower = c(0, 0),
                                        upper = c(1, 1), start = g),
      coef = function(g) coef(g),
      logLik = function(g) logLik(g),
      print = function(g) utils::capture.output(print(g))
    ),
    finite = list(
      predict = function(g) predict(g, 1:3),
      simulate = function(g) simulate(g, 2, seed = 1, newdata = 1:3),
      gp_condition = function(g) gp_condition(g, 2, 0.1),
      acq_evaluate = function(g) acq_evaluate(g, 1:3, "ei", best = 0),
      acq_maximize = function(g) acq_maximize(g, "pbgi", cost = c(1, 2, 3),
                                              lambda = 0.1),
      cost_model_evaluate = function(g) {
        acq_evaluate(fit_f2, 1:3, "ei_pu", cost_model = g)
      },
      coef = function(g) coef(g),
      logLik = function(g) logLik(g),
      print = function(g) utils::capture.output(print(g))
    ),
    miso = list(
      predict = function(g) predict(g, ndm),
      simulate = function(g) simulate(g, 2, seed = 1, newdata = ndm),
      gp_condition = function(g) gp_condition(g, ndm[2, ], 0.2),
      acq_evaluate = function(g) acq_evaluate(g, ndm, "ei"),
      acq_argmax = function(g) acq_maximize(g, "ei", candidates = ndm),
      acq_expected_ucb = function(g) {
        acq_expected_ucb(g, 0.3, controlled = 1, samples = nd)
      },
      gp_fit_miso_start = function(g) gp_fit_miso(Xm, sm, ym, lower = c(0, 0),
                                                  upper = c(1, 1), start = g),
      coef = function(g) coef(g),
      logLik = function(g) logLik(g),
      print = function(g) utils::capture.output(print(g))
    )
  )
  fits <- list(continuous = fit_c, finite = fit_f, miso = fit_m)
  common <- c("kernel", "kcode", "d", "n", "Xs", "ys", "y", "L", "beta", "hyp",
              "ymean", "ysd")
  fields <- list(continuous = c(common, "lower", "upper"),
                 finite = c(common, "fmean", "fcov"),
                 miso = c(common, "lower", "upper", "n_sources"))
  cases <- list()
  for (type in names(fits)) {
    for (field in fields[[type]]) {
      alts <- stale_alterations(fits[[type]][[field]], field)
      for (a in names(alts)) {
        g <- fits[[type]]
        if (is.null(alts[[a]])) g[field] <- list(NULL) else g[[field]] <- alts[[a]]
        for (fn in names(calls[[type]])) {
          cases[[length(cases) + 1L]] <- list(
            label = sprintf("%s$%s <- %s; %s", type, field, a, fn),
            structural = stale_structural(type, field, a),
            run = local({
              f <- calls[[type]][[fn]]
              obj <- g
              function() f(obj)
            })
          )
        }
      }
    }
  }
  cases
}

# The outcome of one case: "costbo_error", "other_error" (with the message)
# or "no_error".
stale_outcome <- function(case) {
  tryCatch({
    suppressWarnings(case$run())
    "no_error"
  }, costbo_error = function(e) "costbo_error",
  error = function(e) paste0("other_error: ", conditionMessage(e)))
}
