# Acquisition functions at inputs, for fitted models: evaluation with
# gradients and maximization (src/acq.c, src/maximize.c).

# Cost kinds of the C layer (enum in src/acq.h).
cost_kinds <- c(const = 0L, gp = 1L, table = 2L, linear = 3L, cosine = 4L,
                radial = 5L, r = 6L)

# Validate the model and the budget state of an acquisition and return a
# plain list describing it (new_acq_spec()); `cost` may be an R function
# (called back from C, see acq_pack()) or a number / vector. The
# validating entry of acq_evaluate() and acq_maximize(); internal callers,
# whose settings come from a checked state, call new_acq_spec() directly.
acq_spec <- function(model, type, cost_model, cost, best, remaining, nu,
                     lambda, beta, call) {
  model <- check_gp_object(model, arg = "model", call = call)
  type <- check_choice(type, acq_types, call = call)
  info <- acq_type(type)
  gp_require(model, "acq_closed_form", arg = "model", call = call)
  finite <- gp_inputs(model) == "candidates"
  miso <- gp_inputs(model) == "sources"
  if (!is.null(cost_model)) {
    # a GP of the log cost on (x, source) pairs is not a model costbo fits
    gp_require(model, "cost_model", arg = "cost_model",
               must = sprintf("NULL for a %s model (give the cost as `cost`)",
                              gp_label(model)),
               value = cost_model, show = TRUE, call = call)
  }
  if (info$cost && is.null(cost) && is.null(cost_model)) {
    stop_arg("cost", sprintf(paste(
      "given (a known cost) when `cost_model` is NULL: type \"%s\" is",
      "cost-aware (for unit costs give cost = 1, or use type \"ei\")"),
      type), show = FALSE, call = call)
  }
  if (miso && inherits(cost, "costbo_cost")) {
    stop_arg("cost", paste("a number or a function of the (x, source) rows",
                           "for a multi-source model"), cost, call = call)
  }
  if (!is.null(cost_model)) {
    cost_model <- check_gp_object(cost_model, arg = "cost_model", call = call)
    same <- gp_can(cost_model, "cost_model") &&
      gp_inputs(cost_model) == gp_inputs(model) && if (finite) {
        length(cost_model$fmean) == length(model$fmean)
      } else {
        cost_model$d == model$d &&
          isTRUE(all.equal(cost_model$lower, model$lower)) &&
          isTRUE(all.equal(cost_model$upper, model$upper))
      }
    if (!same) {
      stop_arg("cost_model", paste("a GP on the same domain as `model` (same",
                                   "inputs and `lower`/`upper` bounds)"),
               show = FALSE, call = call)
    }
    if (!is.null(cost)) {
      stop_arg("cost", "NULL when `cost_model` is given", cost, call = call)
    }
  }
  if (inherits(cost, "costbo_cost")) {
    if (finite) {
      stop_arg("cost", "one value per candidate for a finite domain", cost,
               call = call)
    }
  } else if (!is.null(cost) && !is.function(cost)) {
    n_cand <- if (finite) length(model$fmean) else 1L
    ok <- is.numeric(cost) && length(cost) %in% unique(c(1L, n_cand)) &&
      !anyNA(cost) && all(is.finite(cost)) && all(cost > 0)
    if (!ok) {
      stop_arg("cost", sprintf(paste("a function of x, or positive finite",
                                     "cost%s"),
                               if (finite) sprintf(" (1 or %d values)", n_cand)
                               else " (one value)"), cost, call = call)
    }
  }
  if (is.null(best) && info$best) {
    # of a multi-source model, the objective's (source 0) observations
    obs <- if (miso) model$y[model$Xs[, model$d + 1L] == 0] else model$y
    if (length(obs) == 0L) {
      stop_arg("best", sprintf("given when the model has no observations%s",
                               if (miso) " of the objective (source 0)"
                               else ""),
               show = FALSE, call = call)
    }
    best <- max(obs)
  }
  if (!is.null(best)) best <- check_number(best, arg = "best", call = call)
  setting <- info$setting
  if (!is.na(setting) && setting != "beta" && is.null(get(setting))) {
    stop_arg(setting, sprintf("given for type \"%s\"", type), show = FALSE,
             call = call)
  }
  if (identical(setting, "remaining")) {
    remaining <- check_number(remaining, arg = "remaining", call = call)
  }
  if (identical(setting, "nu")) {
    nu <- check_number(nu, min = 0, max = 1, arg = "nu", call = call)
  }
  if (identical(setting, "lambda")) {
    lambda <- check_number(lambda, min = 0, min_open = TRUE, arg = "lambda",
                           call = call)
  }
  if (identical(setting, "beta")) {
    beta <- check_number(if (is.null(beta)) 2 else beta, min = 0,
                         arg = "beta", call = call)
  }
  # settings the type does not use are ignored, but must be NULL or numbers
  # (nu is used, and fixed, by the types with a fixed exponent)
  given <- list(remaining = remaining, nu = nu, lambda = lambda, beta = beta)
  for (a in names(given)) {
    v <- given[[a]]
    used <- identical(setting, a) || (a == "nu" && !is.na(info$nu))
    if (!used && !is.null(v) && !(is.numeric(v) && length(v) == 1L)) {
      stop_arg(a, sprintf("NULL or a number (type \"%s\" does not use it)",
                          type), v, call = call)
    }
  }
  new_acq_spec(model, type, cost_model, cost, best, remaining, nu, lambda,
               beta)
}

# The acquisition of a fitted model as a plain list (model, type, cost,
# settings), from settings that are trusted: checked by acq_spec(), or taken
# from a checked state by the policies. A type with a fixed cost-cooling
# exponent (acq_table$nu) gets it; settings the type does not use are
# ignored.
new_acq_spec <- function(model, type, cost_model = NULL, cost = NULL,
                         best = NULL, remaining = NULL, nu = NULL,
                         lambda = NULL, beta = NULL) {
  i <- match(type, acq_table$type)
  if (!is.na(acq_table$nu[i])) nu <- acq_table$nu[i]
  if (is.numeric(cost)) cost <- as.double(cost)
  inputs <- gp_inputs(model)
  list(model = model, type = type, finite = inputs == "candidates",
       miso = inputs == "sources", cost_aware = acq_table$cost[i],
       cost_model = cost_model, cost = cost,
       state = c(best = if (is.null(best)) 0 else best,
                 remaining = if (is.null(remaining)) 0 else remaining,
                 nu = if (is.null(nu)) 1 else nu,
                 lambda = if (is.null(lambda)) 1 else lambda,
                 beta = if (is.null(beta)) 0 else beta))
}

# A known cost written in R as C calls it (src/rcall.h): a function of one
# point returning one positive number, optionally with attribute
# "gradient". With `units = "u"`, a closure of the point u of the GP's unit
# cube (gradient d cost / d u); with `units = "x"`, the user's own function
# of x = lower + u * (upper - lower), which C computes (gradient d cost /
# d x), so that no R wrapper runs per call. Made by problem_cost_closure()
# for a problem's cost, and by unit_cost_rows() for the matrix functions of
# acq_evaluate() and acq_maximize(). The class marks its frames for
# call_c(), which names `cost` when an error is signalled inside it.
new_unit_cost <- function(fun, units = "u") {
  # a primitive cannot carry attributes
  if (is.primitive(fun)) {
    prim <- fun
    fun <- function(x) prim(x)
  }
  structure(fun, class = c("costbo_unit_cost", "function"),
            costbo_units = units)
}

# The `cost` of acq_evaluate() and acq_maximize(), a function of a matrix of
# rows in the model's input units (rows (x, source) for a multi-source
# model) returning one cost per row, optionally with a "gradient" attribute
# (d cost / d x), as the closure of one unit-cube point.
unit_cost_rows <- function(cost, model) {
  lower <- model$lower
  range <- model$upper - model$lower
  d <- model$d
  miso <- gp_inputs(model) == "sources"
  new_unit_cost(function(u) {
    x <- lower + u[seq_len(d)] * range
    v <- cost(matrix(if (miso) c(x, u[d + 1L]) else x, 1L))
    g <- attr(v, "gradient")
    # a multi-source model has no x-gradients: C never asks for one
    if (!is.null(g)) {
      attr(v, "gradient") <- if (miso) NULL else as.double(g) * range
    }
    v
  })
}

# The costbo_acq object read by name by unpack_acq() in src/acq.c: the
# closed form's code, the GPs (gp_pack()) with their scalings to user
# units, the cost and the type's settings.
acq_pack <- function(spec) {
  m <- spec$model
  xrange <- if (spec$finite) 1 else m$upper - m$lower
  cc <- attr(spec$cost, "costbo_cost")
  kind <- if (!is.null(spec$cost_model)) "gp" else if (!is.null(cc)) cc$kind
    else if (is.function(spec$cost)) "r"
    else if (spec$finite && length(spec$cost) > 1L) "table" else "const"
  cm <- spec$cost_model
  # the parameters C reads for each kind of cost (see known_cost_at() in
  # src/acq.c); a cost object's attribute may have been altered
  par <- switch(
    kind,
    gp = structure(list(), class = "costbo_cost_par"),
    # the closure of a unit-cube point (rows (x, source) of a multi-source
    # model: the source column passes unscaled)
    r = structure(list(
      fun = if (inherits(spec$cost, "costbo_unit_cost")) spec$cost else
        unit_cost_rows(spec$cost, m),
      offset = as.double(c(m$lower, if (spec$miso) 0)),
      range = as.double(c(xrange, if (spec$miso) 1)),
      # secant gradients while the maximizers climb (src/rcall.h);
      # options(costbo.secant_gradients = FALSE) differences every step
      secant = !isFALSE(getOption("costbo.secant_gradients"))),
      class = "costbo_cost_par"),
    table = if (is.numeric(spec$cost) && length(spec$cost) == length(m$fmean) &&
                all(is.finite(spec$cost))) {
      structure(list(values = as.double(spec$cost)), class = "costbo_cost_par")
    },
    cost_par(kind, if (!is.null(cc)) cc$par else
      if (is.null(spec$cost)) 1 else spec$cost, m$d))
  if (is.null(par)) {
    stop_arg("cost", sprintf(paste("a cost whose parameters (attribute",
                                   "\"costbo_cost\") are those of a %s cost"),
                             kind), if (!is.null(cc)) cc$par else spec$cost,
             call = NULL)
  }
  st <- spec$state
  structure(list(
    type = acq_codes[[spec$type]], model = gp_pack(m),
    f_shift = as.double(m$ymean), f_scale = as.double(m$ysd),
    cost_kind = cost_kinds[[kind]],
    cost_model = if (is.null(cm)) NULL else gp_pack(cm),
    c_shift = if (is.null(cm)) 0 else as.double(cm$ymean),
    c_scale = if (is.null(cm)) 1 else as.double(cm$ysd),
    cost_par = par, xrange = as.double(xrange),
    best = as.double(st[["best"]]), remaining = as.double(st[["remaining"]]),
    nu = as.double(st[["nu"]]), lambda = as.double(st[["lambda"]]),
    beta = as.double(st[["beta"]])), class = "costbo_acq")
}

# Values (and gradients in user units, one row per point) at internal-scale
# points Xs, in C (a known cost written in R is called back from there).
acq_values <- function(spec, Xs, grad) {
  r <- call_c(C_acq_evaluate, acq_pack(spec), Xs, grad)
  list(value = r$value, grad = if (grad) t(r$grad))
}

#' Evaluate an acquisition function at points
#'
#' Evaluates a cost-aware acquisition function of fitted Gaussian processes
#' at given points, with its gradient in the input. The closed forms are
#' those of [acq_closed_form()], applied to the posterior moments of the
#' objective model and of the cost model, and differentiated through the
#' GP predictions.
#'
#' The cost is one of: none (`cost_model` and `cost` both `NULL`: every
#' evaluation costs 1); an unknown cost modelled by `cost_model`, a GP fitted
#' to the **log** of observed costs on the same domain; or a known cost
#' `cost`, either a function of `x` (a matrix with one row per point,
#' returning one cost per row, optionally with a `"gradient"` attribute; else
#' its gradient is taken by forward differences) or, for a [gp_finite()]
#' model, one cost per candidate. Everything is evaluated in C, a cost
#' function by calls back into R, one point (one row) per call.
#'
#' @param model A `costbo_gp` of the objective, from [gp_fit()] or
#'   [gp_finite()].
#' @param x Points: a matrix with one row per point (as `newdata` in
#'   [predict.costbo_gp()]); for a [gp_finite()] model, candidate indices.
#' @param type The acquisition, as in [acq_closed_form()].
#' @param cost_model A `costbo_gp` fitted to the log costs, or `NULL`.
#' @param cost A known cost: a function of `x`, a positive number, or one
#'   positive number per candidate of a [gp_finite()] model; or `NULL` (a
#'   cost-aware type then needs `cost_model`).
#' @param best Best objective value observed; default the largest observation
#'   of `model`.
#' @param remaining Remaining budget, for `"q1"`.
#' @param nu Cost-cooling exponent in \[0, 1\], for `"ei_pu_cc"`.
#' @param lambda Cost multiplier, for `"pbgi"`.
#' @param beta Exploration weight for `"ucb"` (default 2). A setting the
#'   type does not use (`remaining`, `nu`, `lambda`, `beta`) is ignored; it
#'   must be `NULL` or a number.
#' @param grad Also return the gradient in `x`?
#' @return With `grad = FALSE` a numeric vector of values, one per point;
#'   otherwise a list with `value` and `grad` (a matrix with one row per point
#'   and one column per input, in the units of the acquisition per unit of
#'   input).
#' @family acquisition
#' @examples
#' set.seed(1)
#' X <- matrix(runif(20), ncol = 2)
#' fit <- gp_fit(X, sin(6 * X[, 1]) + X[, 2], lower = c(0, 0), upper = c(1, 1))
#' cost_fit <- gp_fit(X, log(1 + 5 * X[, 1]), lower = c(0, 0), upper = c(1, 1))
#' acq_evaluate(fit, rbind(c(0.2, 0.9), c(0.8, 0.9)), "ei_pu",
#'              cost_model = cost_fit, grad = TRUE)
#' acq_evaluate(fit, c(0.2, 0.9), "pbgi", cost = function(x) 1 + 5 * x[, 1],
#'              lambda = 0.01)
#' @export
acq_evaluate <- function(model, x, type = "ei", cost_model = NULL, cost = NULL,
                         best = NULL, remaining = NULL, nu = NULL,
                         lambda = NULL, beta = NULL, grad = FALSE) {
  call <- sys.call()
  spec <- acq_spec(model, type, cost_model, cost, best, remaining, nu, lambda,
                   beta, call)
  grad <- check_flag(grad, call = call)
  if (grad && !acq_type(spec$type)$gradient) {
    stop_arg("grad", sprintf("FALSE for type \"%s\"", spec$type), grad,
             call = call)
  }
  model <- spec$model
  if (grad) {
    gp_require(model, "gradient", arg = "grad",
               must = sprintf("FALSE for a %s GP (it has no x-gradients)",
                              gp_label(model)),
               value = grad, show = TRUE, call = call)
  }
  Xs <- gp_newdata(model, x, arg = "x", call = call)
  if (!spec$finite) check_in_box(Xs[, seq_len(model$d), drop = FALSE], "x", call)
  r <- acq_values(spec, Xs, grad)
  if (grad) r else r$value
}

#' Maximize an acquisition function
#'
#' Finds the point that maximizes a cost-aware acquisition function of fitted
#' Gaussian processes (see [acq_evaluate()] for the acquisitions and costs).
#' Over a box, by the protocol of the reference implementations: the
#' acquisition is evaluated at `n_raw` scrambled Sobol points, `n_starts` of
#' them are chosen as starting points (by Boltzmann-weighted sampling on the
#' standardized values, always keeping the best, or the best `n_starts`), and
#' L-BFGS-B with analytic gradients is run from each, all in C. Over a finite
#' candidate set (a matrix of points, or the candidates of a [gp_finite()]
#' model) the maximum is exact. Ties go to the first point found.
#'
#' @inheritParams acq_evaluate
#' @param lower,upper The box to search; default the bounds of `model`.
#' @param candidates A matrix of candidate points (one per row) to search
#'   instead of a box, or, for a [gp_finite()] model, candidate indices
#'   (default: all candidates).
#' @param n_raw Number of raw Sobol points (default `200 * d`).
#' @param n_starts Number of L-BFGS-B starts (default `10 * d`).
#' @param select How to choose the starts: `"boltzmann"` or `"best"`.
#' @return A list with `x` (the maximizer: a point, or a candidate index for
#'   a [gp_finite()] model) and `value` (the acquisition there); over a box
#'   also `raw_best`, the best raw-point value.
#' @family acquisition
#' @examples
#' set.seed(1)
#' x <- c(0.05, 0.3, 0.5, 0.9)
#' fit <- gp_fit(x, sin(8 * x), lower = 0, upper = 1)
#' acq_maximize(fit, "ei")
#' acq_maximize(fit, "ei_pu", cost = function(x) exp(2 * x[, 1]))
#' @export
acq_maximize <- function(model, type = "ei", cost_model = NULL, cost = NULL,
                         best = NULL, remaining = NULL, nu = NULL,
                         lambda = NULL, beta = NULL, lower = NULL,
                         upper = NULL, candidates = NULL, n_raw = NULL,
                         n_starts = NULL, select = c("boltzmann", "best")) {
  call <- sys.call()
  spec <- acq_spec(model, type, cost_model, cost, best, remaining, nu, lambda,
                   beta, call)
  select <- check_choice(select, c("boltzmann", "best"), call = call)
  model <- spec$model
  if (!spec$finite && is.null(candidates)) {
    gp_require(model, "box", arg = "candidates",
               must = sprintf(paste("given for a %s GP (a matrix of",
                                    "rows (x, source))"), gp_label(model)),
               call = call)
  }
  if (spec$finite || !is.null(candidates)) {
    if (spec$finite && is.null(candidates)) candidates <- seq_along(model$fmean)
    Xs <- gp_newdata(model, candidates, arg = "candidates", call = call)
    if (!spec$finite) {
      check_in_box(Xs[, seq_len(model$d), drop = FALSE], "candidates", call)
    }
    r <- acq_argmax_rows(spec, Xs)
    x <- if (spec$finite) as.integer(Xs[r$index, 1L] + 1) else
      check_matrix(candidates, d = model$d + spec$miso)[r$index, ]
    return(list(x = x, value = r$value))
  }
  d <- model$d
  if (is.null(lower)) lower <- model$lower
  if (is.null(upper)) upper <- model$upper
  box <- check_box(lower, upper, d, of = "the inputs of `model`",
                   call = call)
  lower <- box$lower
  upper <- box$upper
  n_raw <- check_count_cells(if (is.null(n_raw)) 200L * d else n_raw, d,
                             arg = "n_raw", call = call)
  n_starts <- check_count(if (is.null(n_starts)) 10L * d else n_starts,
                          min = 0L, arg = "n_starts", call = call)
  range <- model$upper - model$lower
  lo <- (lower - model$lower) / range
  up <- (upper - model$lower) / range
  check_in_box(rbind(lo), "lower", call)
  check_in_box(rbind(up), "upper", call)
  acq_maximize_box(spec, lo, up, n_raw, max_control(n_starts, select))
}

# The exact argmax of an acquisition over internal-scale candidate rows Xs
# (no checks): list(index (of the row), value); ties go to the first row.
acq_argmax_rows <- function(spec, Xs) {
  r <- call_c(C_acq_argmax, acq_pack(spec), Xs)
  list(index = r$index, value = r$values[r$index])
}

# The maximizer of acq_maximize() over the box [lo, up] of the model's unit
# cube (no checks): C draws n_raw scrambled Sobol points and n_raw selection
# uniforms from R's RNG, in that order; control is a max_control(). Returns
# list(x (user units), value, raw_best).
acq_maximize_box <- function(spec, lo, up, n_raw, control) {
  model <- spec$model
  r <- call_c(C_acq_maximize, acq_pack(spec), lo, up, as.integer(n_raw),
              control)
  list(x = model$lower + r$x * (model$upper - model$lower), value = r$value,
       raw_best = r$raw_best)
}

# The control of the C maximizer (struct cb_max_control of src/maximize.h,
# read by name by unpack_max_control()): L-BFGS-B starts, their selection
# from the raw points ("boltzmann" sampling at temperature eta on the
# standardized values, or the "best" ones), and L-BFGS-B's iterations,
# relative tolerance factr (in machine epsilons), projected-gradient
# tolerance pgtol and memory lmm. The defaults are those of
# max_control_default() in C. It trusts its arguments: those of a user are
# checked where they enter (acq_maximize(), the policies' constructors).
max_control <- function(n_starts, select = "boltzmann", eta = 1, maxit = 200L,
                        factr = 1e7, pgtol = 0, lmm = 5L) {
  structure(list(
    n_starts = as.integer(n_starts),
    select = match(select, c("boltzmann", "best")) - 1L,
    eta = as.double(eta), maxit = as.integer(maxit),
    factr = as.double(factr), pgtol = as.double(pgtol),
    lmm = as.integer(lmm)),
    class = "costbo_max_control")
}

