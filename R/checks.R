# The package's conditions. Every error costbo signals is a "costbo_error":
#   costbo_error_arg  an argument cannot be used; fields `arg` (its name)
#                     and `value` (what was given);
#   costbo_error_c    an error raised in the C code (a numerical failure such
#                     as a covariance that stays singular), re-signalled by
#                     call_c(); field `routine` (the C entry point);
#   costbo_error_policy a policy proposed no valid point (proposal_step()
#                     in problem-questions.R); field `policy` (its name);
#   costbo_error      anything else (stop_costbo()).
# Each carries the user's call, found by user_call(): that of the exported
# function (or S3 method) the user called; the `call` the helpers are given
# is used only when there is none on the stack (an internal function called
# directly).
#
# The check_*() helpers take the argument's name before they evaluate or
# reassign anything (force(arg) first): a default `deparse(substitute(x))`
# worked out after `x` was reassigned would deparse the value instead.

# The one constructor of costbo's conditions: `class` its own classes,
# most specific first ("costbo_error" or "costbo_warning" included where
# the condition is one); `type` what it is signalled as ("error",
# "warning" or "message"); `call` the call it names (user_call() of the
# helper's call for what the user did, NULL for none); `...` its fields.
costbo_condition <- function(class, message, call = NULL, ...,
                             type = "error") {
  structure(class = c(class, type, "condition"),
            list(message = message, call = call, ...))
}

stop_arg <- function(arg, must, x = NULL, call = sys.call(-1L), show = TRUE) {
  arg <- paste(arg, collapse = " ")
  got <- if (show) sprintf(", not %s", describe_value(x)) else ""
  call <- user_call(call)
  msg <- sprintf("%s must be %s%s.", arg_as_given(arg, call), must, got)
  stop(costbo_condition(c("costbo_error_arg", "costbo_error"), msg, call,
                        arg = arg, value = x))
}

# The renamed arguments: new name = old name. (Each new name has one old
# one.) An error about an argument given by its old name names it so (see
# arg_as_given()).
renamed_args <- c(gp_args = "model", processes = "workers", noise = "noisy",
                  noise_sd = "noise", decay = "beta", cost_family = "cost",
                  cost_set = "costs", source_costs = "costs")

# How an error names argument `arg` (a name, or a path such as
# "gp_args$cost") of the user's call `call`: by its old name, "`model`
# (now `gp_args`)", when the call gave it by that name; else `arg`
# itself, between backticks.
arg_as_given <- function(arg, call) {
  quoted <- sprintf("`%s`", arg)
  top <- sub("[$[].*$", "", arg)
  old <- renamed_args[top]
  given <- if (is.call(call)) names(call) else NULL
  if (is.na(old) || !(old %in% given) || top %in% given) return(quoted)
  sprintf("`%s%s` (now `%s`)", old, substring(arg, nchar(top) + 1L), top)
}

# Signal that arguments `args` (two or more names) cannot be used together,
# as a costbo_error_arg naming all of them ("`lower` and `upper` must have
# the same length (2 and 3)."), so that whichever the user got wrong is
# named; field `arg` holds the names.
stop_args <- function(args, must, call = sys.call(-1L)) {
  call <- user_call(call)
  quoted <- vapply(args, arg_as_given, "", call = call, USE.NAMES = FALSE)
  n <- length(quoted)
  who <- if (n <= 2L) paste(quoted, collapse = " and ") else
    paste0(paste(quoted[-n], collapse = ", "), " and ", quoted[n])
  stop(costbo_condition(c("costbo_error_arg", "costbo_error"),
                        sprintf("%s must %s.", who, must), call,
                        arg = args, value = NULL))
}

# Arguments that must have the same length (recycled vectors may also have
# length 1 when `one = TRUE`): `lens` their lengths, named by the arguments.
# A mismatch names the two arguments whose lengths differ.
check_same_length <- function(lens, one = FALSE, call = sys.call(-1L)) {
  keep <- if (one) lens != 1L else rep(TRUE, length(lens))
  l <- lens[keep]
  if (length(unique(l)) > 1L) {
    i <- c(1L, which(l != l[1L])[1L])
    stop_args(names(l)[i], sprintf("have the same length%s (%d and %d)",
                                   if (one) " or length 1" else "",
                                   l[i[1L]], l[i[2L]]), call = call)
  }
  invisible(if (length(l)) l[[1L]] else 1L)
}

stop_costbo <- function(msg, call = sys.call(-1L)) {
  stop(costbo_condition("costbo_error", paste(msg, collapse = " "),
                        user_call(call)))
}

# The functions whose calls are the user's: the exports and the registered
# S3 methods of the namespace (computed once).
api_functions <- local({
  cache <- NULL
  function() {
    if (is.null(cache)) {
      ns <- asNamespace("costbo")
      nms <- c(getNamespaceExports(ns),
               ls(ns[[".__S3MethodsTable__."]], all.names = TRUE))
      funs <- mget(unique(nms), envir = ns, inherits = FALSE,
                   ifnotfound = list(NULL))
      cache <<- Filter(is.function, funs)
    }
    cache
  }
})

# The user's call: that of the innermost exported function (or S3 method) on
# the stack that was called from outside the package (from the user's code,
# or an objective or cost function the user wrote), so that a costbo
# function the package calls internally (also through do.call() or
# lapply()) is not reported; `fallback` when
# there is none (an internal function called directly).
user_call <- function(fallback = NULL) {
  api <- api_functions()
  ns <- asNamespace("costbo")
  parents <- sys.parents()
  for (i in rev(seq_len(sys.nframe() - 1L))) {
    f <- sys.function(i)
    if (!identical(environment(f), ns)) next
    if (!any(vapply(api, identical, logical(1), f))) next
    # the caller, seen through base functions such as do.call() and lapply()
    p <- parents[i]
    while (p > 0L &&
           identical(environment(sys.function(p)), .BaseNamespaceEnv)) {
      p <- parents[p]
    }
    if (p == 0L || !identical(topenv(environment(sys.function(p))), ns)) {
      return(sys.call(i))
    }
  }
  fallback
}

# .Call() for every call site: an error raised in C (by Rf_error) arrives in
# R as a plain simpleError whose call is that of the innermost R closure,
# here the withCallingHandlers() below; it is re-signalled as a
# costbo_error_c naming the C routine, with the user's call. An error raised
# inside a known cost written in R that C calls back (src/rcall.h) is
# re-signalled, before the unwinding, as a costbo_error_cost naming `cost`
# (the original as `parent`); a bad value that C detects arrives as a
# costbo_error_cost and gets the user's call. The routine and its arguments
# are passed on as `...` (so that R CMD check's registration check of
# .Call() accepts the wrapper).
call_c <- function(...) {
  withCallingHandlers(.Call(...), error = function(e) {
    if (inherits(e, "costbo_error_cost") && is.null(conditionCall(e))) {
      # a bad value, detected by src/rcall.c: the user's call
      e$call <- user_call()
      stop(e)
    }
    u <- cost_closure_point()
    if (!inherits(e, "costbo_error_cost") && !is.null(u)) {
      stop_cost_failed(e, u)
    }
    cl <- conditionCall(e)
    if (!inherits(e, "costbo_error") && is.call(cl) &&
        identical(cl[[1L]], quote(withCallingHandlers))) {
      sym <- ..1
      routine <- if (is.list(sym) && is.character(sym$name)) sym$name else
        "(unnamed)"
      stop(costbo_condition(c("costbo_error_c", "costbo_error"),
                            sprintf("%s (in the C routine %s)",
                                    conditionMessage(e), routine),
                            user_call(), routine = routine, parent = e))
    }
  })
}

# The point of the innermost active call of a known cost written in R
# (a costbo_unit_cost function called back from C, src/rcall.h), with
# attribute "units" ("x": the user's units, "u": the unit cube), or NULL.
cost_closure_point <- function() {
  for (i in rev(seq_len(sys.nframe()))) {
    f <- sys.function(i)
    if (inherits(f, "costbo_unit_cost")) {
      arg <- names(formals(f))[1L]
      pt <- tryCatch(get(arg, envir = sys.frame(i), inherits = FALSE),
                     error = function(e) NA_real_)
      return(structure(list(pt), units = attr(f, "costbo_units")))
    }
  }
  NULL
}

# An error signalled inside a known cost written in R, called from C at
# the point p (from cost_closure_point()), as a costbo error naming `cost`.
stop_cost_failed <- function(e, p) {
  u <- p[[1L]]
  pt <- if (inherits(e, "costbo_typed_failure")) {
    # a typed problem's cost: the typed point it received
    sprintf("list(%s)", e$point)
  } else if (is.numeric(u) && length(u)) {
    sprintf("(%s%s)", paste(trimws(formatC(u[seq_len(min(8L, length(u)))],
                                           digits = 4, format = "g")),
                            collapse = ", "), if (length(u) > 8L) ", ..." else "")
  } else "(unknown)"
  where <- if (identical(attr(p, "units"), "x") ||
                inherits(e, "costbo_typed_failure")) "" else
    " of the unit cube"
  msg <- if (inherits(e, "costbo_typed_failure")) {
    sprintf(paste("`cost` failed at the point %s: %s (the cost receives a",
                  "typed point as a named list)"), pt, e$original)
  } else sprintf("`cost` failed at the point %s%s: %s", pt, where,
                 conditionMessage(e))
  stop(costbo_condition(c("costbo_error_cost", "costbo_error_arg",
                          "costbo_error"), msg, user_call(), arg = "cost",
                        value = NULL, parent = e))
}

# `row.names` of the as.data.frame() methods: NULL or n distinct names.
check_row_names <- function(x, n, call = sys.call(-1L)) {
  ok <- is.null(x) || (is.atomic(x) && is.null(dim(x)) && length(x) == n &&
                         !anyNA(x) && !anyDuplicated(x))
  if (!ok) {
    stop_arg("row.names", sprintf("NULL or %d distinct names", n), x, call)
  }
  x
}

describe_value <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.function(x)) return("a function")
  if (is.matrix(x)) return(sprintf("a %d x %d %s matrix", nrow(x), ncol(x),
                                   typeof(x)))
  if (is.list(x)) return(sprintf("a list of length %d", length(x)))
  if (length(x) == 1L) {
    if (is.character(x)) return(sprintf("\"%s\"", x))
    return(format(x))
  }
  sprintf("a %s vector of length %d", typeof(x), length(x))
}

check_number <- function(x, min = -Inf, max = Inf, arg = deparse(substitute(x)),
                         call = sys.call(-1L), min_open = FALSE) {
  force(arg)
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    (if (min_open) x > min else x >= min) && x <= max
  if (!ok) {
    rng <- if (is.finite(min) && is.finite(max)) {
      sprintf(" in [%g, %g]", min, max)
    } else if (is.finite(min)) {
      sprintf(" %s %g", if (min_open) ">" else ">=", min)
    } else if (is.finite(max)) sprintf(" <= %g", max) else ""
    stop_arg(arg, paste0("a single finite number", rng), x, call)
  }
  as.double(x)
}

check_count <- function(x, min = 0L, arg = deparse(substitute(x)),
                        call = sys.call(-1L)) {
  force(arg)
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x == round(x) && x >= min && x <= .Machine$integer.max
  if (!ok) stop_arg(arg, sprintf("a single whole number >= %d", min), x, call)
  as.integer(x)
}

check_flag <- function(x, arg = deparse(substitute(x)), call = sys.call(-1L)) {
  force(arg)
  if (!(is.logical(x) && length(x) == 1L && !is.na(x)))
    stop_arg(arg, "TRUE or FALSE", x, call)
  x
}

# `noise` of bo_problem(): FALSE (a deterministic objective), TRUE (a noisy
# one whose noise variance is unknown) or a noise variance >= 0 (noisy when
# positive), as list(variance = , noisy = ): the variance is 0 when unknown.
check_noise <- function(x, arg = deparse(substitute(x)), call = sys.call(-1L)) {
  force(arg)
  if (is.logical(x) && length(x) == 1L && !is.na(x)) {
    return(list(variance = 0, noisy = x))
  }
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x >= 0
  if (!ok) {
    stop_arg(arg, paste("TRUE, FALSE or a noise variance",
                        "(a single finite number >= 0)"), x, call)
  }
  list(variance = as.double(x), noisy = x > 0)
}

check_string <- function(x, arg = deparse(substitute(x)),
                         call = sys.call(-1L)) {
  force(arg)
  if (!(is.character(x) && length(x) == 1L && !is.na(x) && nzchar(x)))
    stop_arg(arg, "a single non-empty string", x, call)
  x
}

check_choice <- function(x, choices, arg = deparse(substitute(x)),
                         call = sys.call(-1L)) {
  force(arg)
  if (!(is.character(x) && length(x) >= 1L)) {
    stop_arg(arg, sprintf("one of %s", paste0("\"", choices, "\"",
                                               collapse = ", ")), x, call)
  }
  if (identical(x, choices)) return(choices[1L])
  if (length(x) != 1L || is.na(x) || !(x %in% choices)) {
    stop_arg(arg, sprintf("one of %s", paste0("\"", choices, "\"",
                                               collapse = ", ")), x, call)
  }
  x
}

# `of`: what fixes the number `len` (e.g. "one per column of `X`").
check_positive_vector <- function(x, len, arg = deparse(substitute(x)),
                                  call = sys.call(-1L), of = NULL) {
  force(arg)
  ok <- is.numeric(x) && length(x) %in% c(1L, len) && !anyNA(x) &&
    all(is.finite(x)) && all(x > 0)
  if (!ok) {
    stop_arg(arg, sprintf("positive finite numbers (1 or %d of them%s)", len,
                          if (is.null(of)) "" else paste(":", of)),
             x, call)
  }
  rep_len(as.double(x), len)
}

# A numeric matrix with finite entries; a vector becomes a one-row matrix when
# `d` is known, else a one-column matrix.
check_matrix <- function(x, d = NULL, arg = deparse(substitute(x)),
                         call = sys.call(-1L), min_rows = 1L) {
  force(arg)
  if (is.data.frame(x)) x <- as.matrix(x)
  if (is.numeric(x) && is.null(dim(x))) {
    if (!is.null(d) && length(x) %% d != 0L) {
      stop_arg(arg, sprintf("a matrix with %d columns (or a vector of a multiple of %d values)",
                            d, d), x, call)
    }
    x <- if (!is.null(d) && d > 1L) matrix(x, ncol = d, byrow = TRUE)
    else matrix(x, ncol = if (is.null(d)) 1L else d)
  }
  if (!(is.numeric(x) && is.matrix(x)))
    stop_arg(arg, "a numeric matrix", x, call)
  if (nrow(x) < min_rows)
    stop_arg(arg, sprintf("a matrix with at least %d row%s", min_rows,
                          if (min_rows == 1L) "" else "s"), x, call)
  if (!is.null(d) && ncol(x) != d)
    stop_arg(arg, sprintf("a matrix with %d column%s", d,
                          if (d == 1L) "" else "s"), x, call)
  if (anyNA(x) || !all(is.finite(x)))
    stop_arg(arg, "free of NA, NaN and infinite values", x, call,
             show = FALSE)
  if (as.double(nrow(x)) * ncol(x) > .Machine$integer.max)
    stop_arg(arg, "small enough for 32-bit BLAS indexing", x, call)
  storage.mode(x) <- "double"
  x
}

check_vector <- function(x, n = NULL, arg = deparse(substitute(x)),
                         call = sys.call(-1L)) {
  force(arg)
  if (!(is.numeric(x) && is.null(dim(x)) || is.numeric(x) &&
        length(dim(x)) == 2L && min(dim(x)) == 1L))
    stop_arg(arg, "a numeric vector", x, call)
  x <- as.double(x)
  if (!is.null(n) && length(x) != n)
    stop_arg(arg, sprintf("of length %d", n), x, call)
  if (anyNA(x) || !all(is.finite(x)))
    stop_arg(arg, "free of NA, NaN and infinite values", x, call,
             show = FALSE)
  x
}

# Arguments that give one element per point: `counts` their counts of
# points (named by the arguments, the first the one that holds the points,
# e.g. c(X = nrow(X), y = length(y))), `what` how each counts them (e.g.
# c("rows", "values")). A mismatch names them all.
check_per_point <- function(counts, what, call = sys.call(-1L)) {
  if (length(unique(counts)) > 1L) {
    stop_args(names(counts), sprintf(
      "give one element per point (%s)",
      paste(counts, what, "of", sprintf("`%s`", names(counts)),
            collapse = ", ")), call = call)
  }
  invisible(counts[[1L]])
}

# The bounds `lower` and `upper` of a box: numeric vectors of the same
# length, a single number recycled, each upper bound above its lower bound.
# The dimension is `d` when something else fixes it (`of` says what, e.g.
# "the columns of `X`"), else that of the longer bound. Returns
# list(lower, upper).
check_box <- function(lower, upper, d = NULL, of = NULL,
                      call = sys.call(-1L)) {
  lower <- check_vector(lower, arg = "lower", call = call)
  upper <- check_vector(upper, arg = "upper", call = call)
  if (is.null(d)) {
    check_same_length(c(lower = length(lower), upper = length(upper)),
                      one = TRUE, call = call)
    d <- max(length(lower), length(upper))
  }
  for (a in c("lower", "upper")) {
    v <- if (a == "lower") lower else upper
    if (length(v) == 1L) v <- rep(v, d)
    if (length(v) != d) {
      stop_arg(a, sprintf("of length %s (%s)",
                          if (d == 1L) "1" else sprintf("1 or %d", d), of),
               if (a == "lower") lower else upper, call = call)
    }
    if (a == "lower") lower <- v else upper <- v
  }
  if (d < 1L) stop_arg("lower", "of length at least 1", lower, call = call)
  if (any(upper <= lower)) {
    stop_arg("upper", "greater than `lower` in every coordinate", upper,
             call = call)
  }
  if (!all(is.finite(upper - lower))) {
    stop_args(c("lower", "upper"), paste(
      "span a box whose widths upper - lower are finite (they overflow",
      "the double range)"), call = call)
  }
  list(lower = lower, upper = upper)
}

# Signal that argument `arg` cannot serve: the costbo error `cond` that the
# code using it raised (e.g. gp_fit() on a `model` setting) is re-signalled
# as a costbo_error_arg naming `arg`, with the user's call.
stop_arg_cause <- function(arg, cond, call = sys.call(-1L)) {
  msg <- sprintf("`%s` cannot be used for this run: %s", arg,
                 conditionMessage(cond))
  stop(costbo_condition(c("costbo_error_arg", "costbo_error"), msg,
                        user_call(call), arg = arg, value = NULL,
                        parent = cond))
}

# Caps on the size arguments of the loop (issue 39), measured with R's
# reference BLAS on 2 cores: gp_fit() on n = 1000 points in d = 2 takes
# 4 s, on n = 2000 28 s (O(n^3): one Cholesky of n = 1e4 alone takes
# minutes and 800 MB), so an initial design has at most 1000 points; each
# worker holds a copy of the run (a future worker costs 100s of MB), so
# there are at most 64 workers, real or virtual.
max_n_init <- 1000L
max_workers <- 64L
# A run without max_evaluations stops after this many evaluations after its
# initial design, with a warning: a cost that is tiny against the budget, or
# a measured cost that is never valid (never charged), has no natural end,
# and an exact GP on 2000 points takes about 30 s per fit (the studies'
# longest runs have 664 evaluations).
max_run_evaluations <- 2000L
# The largest matrix of doubles a size argument may ask for (2^27 cells,
# 1 GiB): sobol_points(n, d), gp_prior_sample(d, n_features = ),
# acq_maximize(n_raw = ) are refused above it, naming the argument, before
# R's allocator would fail.
max_cells <- 2^27

# A count `x` (the rows of a matrix of `cols` columns) whose matrix fits in
# max_cells, checked as check_count_max() does.
check_count_cells <- function(x, cols, min = 1L, arg, call = sys.call(-1L)) {
  check_count_max(x, min, max(min, floor(max_cells / cols)), arg = arg,
                  call = call)
}
# policy_bmsei()'s tree: one proposal on n = 50 points in d = 2 takes 0.7 s
# with the default 53 nodes, 2.5 s with 187 and 9 s with 585
bmsei_max_nodes <- 200L

# A whole number in [min, max]: the size arguments of the exported API,
# each with a documented cap (issue 16, bounded work). `arg` is given by
# every caller.
check_count_max <- function(x, min = 0L, max, arg, call = sys.call(-1L)) {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x == round(x) && x >= min && x <= max
  if (!ok) {
    stop_arg(arg, sprintf("a single whole number in [%d, %s]", min,
                          format(max, scientific = FALSE, big.mark = "")),
             x, call)
  }
  as.integer(x)
}

# `digits` of a format() or print() method: significant digits, as
# signif() and format() take them (1 to 22).
check_digits <- function(digits, call = sys.call(-1L)) {
  check_count_max(digits, min = 1L, max = 22L, arg = "digits", call = call)
}

check_index <- function(x, n, arg = deparse(substitute(x)),
                        call = sys.call(-1L)) {
  force(arg)
  if (is.matrix(x) && ncol(x) == 1L) x <- drop(x)
  ok <- is.numeric(x) && length(x) >= 1L && !anyNA(x) && all(x == round(x)) &&
    all(x >= 1) && all(x <= n)
  if (!ok) stop_arg(arg, sprintf("candidate indices between 1 and %d", n), x,
                    call = call)
  as.double(x)
}

# Source labels: `n` whole numbers >= 0 (any number of them, at least one,
# when `n` is NULL).
check_sources <- function(source, n, arg = deparse(substitute(source)),
                          call = sys.call(-1L)) {
  force(arg)
  len_ok <- if (is.null(n)) length(source) >= 1L else length(source) == n
  if (!(is.numeric(source) && len_ok &&
        all(is.finite(source)) && all(source >= 0) &&
        all(source == round(source)) &&
        all(source <= .Machine$integer.max))) {
    stop_arg(arg, sprintf("%s whole numbers >= 0 (0 = the objective)",
                          if (is.null(n)) "a vector of" else n),
             source, call = call)
  }
  as.integer(source)
}

# Internal-scale points must lie in the unit cube, i.e. inside the bounds of
# the model.
check_in_box <- function(Xs, arg, call) {
  if (any(Xs < -1e-10) || any(Xs > 1 + 1e-10)) {
    stop_arg(arg, "inside the bounds [lower, upper] of the model",
             show = FALSE, call = call)
  }
}

# A numeric vector of length 1 or n, finite, within [min, max] (or
# (min, max] when min_open), recycled to length n.
check_acq_vector <- function(x, n, min = -Inf, max = Inf, min_open = FALSE,
                             arg = deparse(substitute(x)),
                             call = sys.call(-1L)) {
  force(arg)
  rng <- if (is.finite(min) && is.finite(max)) {
    sprintf(" in [%g, %g]", min, max)
  } else if (is.finite(min)) {
    sprintf(" %s %g", if (min_open) ">" else ">=", min)
  } else ""
  must <- sprintf("a numeric vector%s with finite values%s",
                  if (is.null(n)) "" else sprintf(" of length 1 or %d", n),
                  rng)
  ok <- is.numeric(x) && is.null(dim(x)) &&
    (if (is.null(n)) length(x) >= 1L else length(x) %in% c(1L, n)) &&
    !anyNA(x) && all(is.finite(x))
  if (ok) {
    ok <- all(if (min_open) x > min else x >= min) && all(x <= max)
  }
  if (!ok) stop_arg(arg, must, x, call)
  if (is.null(n)) as.double(x) else rep_len(as.double(x), n)
}

check_named_list <- function(x, class, arg, allow_function = FALSE,
                             call = sys.call(-1L)) {
  if (inherits(x, class)) {
    nm <- if (class == "bo_problem") x$name else x$label
    x <- stats::setNames(list(x), nm)
  }
  what <- if (allow_function) {
    sprintf("a named list of %ss (or functions of the replication number returning one)",
            class)
  } else sprintf("a named list of %ss", class)
  if (!is.list(x) || length(x) == 0L) stop_arg(arg, what, x, call)
  nm <- names(x)
  if (is.null(nm) || anyNA(nm) || any(!nzchar(nm)) || anyDuplicated(nm)) {
    stop_arg(arg, paste(what, "with distinct non-empty names"), x, call,
             show = FALSE)
  }
  ok <- vapply(x, function(e) {
    inherits(e, class) || (allow_function && is.function(e))
  }, logical(1))
  if (!all(ok)) {
    stop_arg(arg, paste0(what, "; element \"", nm[!ok][1L], "\" is ",
                         describe_value(x[[which(!ok)[1L]]])), x, call,
             show = FALSE)
  }
  x
}

# The replication numbers to run: from `reps` (a number n: replications
# 1..n; or two or more distinct replication numbers) or, when given instead
# (`reps_given` says whether the user gave `reps`), from `rep_ids` (one or
# more distinct replication numbers, taken as they are).
check_reps <- function(reps, rep_ids = NULL, reps_given = FALSE,
                       call = sys.call(-1L)) {
  numbers_ok <- function(x) {
    is.numeric(x) && length(x) >= 1L && !anyNA(x) &&
      all(is.finite(x)) && all(x == round(x)) && all(x >= 1) &&
      all(x <= 1e6) && !anyDuplicated(x)
  }
  if (!is.null(rep_ids)) {
    if (reps_given) {
      stop_arg("rep_ids", "left out when `reps` is given: give `reps` or `rep_ids`, not both",
               rep_ids, call, show = FALSE)
    }
    if (!numbers_ok(rep_ids)) {
      stop_arg("rep_ids", "distinct whole replication numbers in [1, 1e6]",
               rep_ids, call)
    }
    return(as.integer(rep_ids))
  }
  if (!numbers_ok(reps)) {
    stop_arg("reps", "a number of replications or distinct replication numbers >= 1",
             reps, call)
  }
  reps <- as.integer(reps)
  if (length(reps) == 1L) seq_len(reps) else reps
}

# A GP whose log marginal likelihood, factor and weights are finite, else
# an error naming `blame` (the fixed settings, or the data): data too far
# from the model's mean in units of its sd make the likelihood overflow.
check_fit_finite <- function(fit, blame, call = sys.call(-1L)) {
  ll <- fit$loglik_std - fit$n * log(fit$ysd)
  ok <- is.finite(ll) && all(is.finite(fit$beta)) && all(is.finite(fit$L)) &&
    all(is.finite(fit$ys))
  if (!ok) {
    stop_args(blame, sprintf(paste(
      "leave the model's log marginal likelihood finite (it is %s: the",
      "data are too far from the model's mean in units of its sd)"),
      format(ll)), call = call)
  }
  invisible(fit)
}
