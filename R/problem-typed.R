# Problems over a typed search space (class "bo_problem_typed", a
# "bo_problem_box" on the space's encoding; see problem-questions.R and
# space.R). The loop, the policies and the models work on the unit cube of
# the encoding; the records hold transformed points T(u), so that every
# recorded row is a valid typed point; the user's objective and cost receive
# the typed point as a named list, and reports decode the rows.

# The objective and the cost of the encoded problem: the user's functions of
# a typed point.
typed_objective <- function(space, objective) {
  force(space)
  force(objective)
  function(x) typed_call(objective, space, x, "objective")
}

typed_cost <- function(space, cost) {
  force(space)
  force(cost)
  function(x) typed_call(cost, space, x, "cost")
}

# The user's function `f` (the `what`) at the typed point of the encoded
# point x. An error in it says what the function received, the typed
# point as a named list (not the encoded point the loop works on): a
# condition of class costbo_typed_failure with the point as `point`
# (stop_cost_failed() shows it instead of the encoded one).
typed_call <- function(f, space, x, what) {
  pt <- space_point(space, x)
  withCallingHandlers(f(pt), error = function(e) {
    shown <- format_typed_point(pt)
    stop(costbo_condition("costbo_typed_failure",
                          sprintf(paste("%s (the %s receives a typed point",
                                        "as a named list, here list(%s))"),
                                  conditionMessage(e), what, shown),
                          conditionCall(e), point = shown,
                          original = conditionMessage(e)))
  })
}

# A typed point (a named list) as "a = 0.4228, n = 4, k = \"v\"".
format_typed_point <- function(pt) {
  paste(names(pt), vapply(pt, function(v) {
    if (is.character(v) || is.factor(v)) {
      sprintf("\"%s\"", as.character(v))
    } else format(signif(v, 4L))
  }, ""), sep = " = ", collapse = ", ")
}

problem_step.bo_problem_typed <- function(problem, p, state) {
  u <- space_transform(problem$space, matrix(as.double(p$x), 1L))
  if (!isTRUE(problem$noisy)) u <- typed_unvisited(problem, state, u)
  new_step(u[1L, ])
}

# A proposal of a deterministic objective that repeats an evaluated point is
# moved to the nearest typed point not yet evaluated: breadth first over
# the changes of one discrete parameter (an integer to a neighbouring
# integer, a category to another level), the numeric parameters kept; among
# the nearest, the one of largest posterior mean of the objective's model
# (the first on ties). Unchanged when there is no discrete parameter, or
# every typed point reachable this way has been evaluated.
typed_unvisited <- function(problem, state, u) {
  sp <- problem$space
  if (!space_discrete(sp) || !length(state$value)) return(u)
  key <- function(M) apply(M, 1L, function(r) paste(r, collapse = " "))
  seen <- key(state$X)
  if (!(key(u) %in% seen)) return(u)
  visited <- key(u)
  frontier <- u
  repeat {
    nb <- typed_neighbours(sp, frontier)
    if (!nrow(nb)) return(u)
    k <- key(nb)
    keep <- !duplicated(k) & !(k %in% visited)
    nb <- nb[keep, , drop = FALSE]
    k <- k[keep]
    if (!nrow(nb)) return(u)
    fresh <- !(k %in% seen)
    if (any(fresh)) {
      cand <- nb[fresh, , drop = FALSE]
      f <- state$models$f
      if (nrow(cand) > 1L && inherits(f, "costbo_gp") &&
          identical(gp_transform(f), sp$transform)) {
        m <- predict(f, cand, sd = FALSE)$mean
        return(cand[which.max(m), , drop = FALSE])
      }
      return(cand[1L, , drop = FALSE])
    }
    visited <- c(visited, k)
    frontier <- nb
  }
}

problem_exhausted.bo_problem_typed <- function(problem, state, step) {
  !isTRUE(problem$noisy) && space_discrete(problem$space) &&
    length(state$value) > 0L &&
    any(colSums(t(state$X) == step$x) == problem$d)
}

# The typed points one discrete change away from the rows of U (encoded).
typed_neighbours <- function(space, U) {
  D <- space_decode_rows(space, U)
  out <- list()
  for (i in seq_along(space$params)) {
    p <- space$params[[i]]
    if (p$type == "num") next
    nm <- names(space$params)[i]
    for (r in seq_len(nrow(D))) {
      vals <- if (p$type == "int") {
        v <- D[[nm]][r]
        c(v - 1L, v + 1L)[c(v - 1L, v + 1L) >= p$lower &
                              c(v - 1L, v + 1L) <= p$upper]
      } else setdiff(p$levels, as.character(D[[nm]][r]))
      for (v in vals) {
        row <- D[r, , drop = FALSE]
        row[[nm]] <- if (p$type == "cat") {
          factor(v, levels = p$levels)
        } else as.integer(v)
        out[[length(out) + 1L]] <- row
      }
    }
  }
  if (!length(out)) return(matrix(0, 0, space$d))
  space_encode_rows(space, do.call(rbind, out), "x", NULL)
}

# The initial design: scrambled Sobol points of the cube, transformed, the
# first n distinct typed points among the first 64 n (fewer when the space
# has fewer).
problem_design.bo_problem_typed <- function(problem, n, design = "sobol") {
  sp <- problem$space
  U <- sobol_unit(if (space_discrete(sp)) 64L * n else n, sp$d)
  U <- typed_first_distinct(sp, U, n)
  m <- nrow(U)
  list(x = U, control_set = rep(NA_integer_, m),
       source = rep(NA_integer_, m), index = rep(NA_integer_, m))
}

# The first n distinct rows of T(U) (all of them when there are fewer), in
# their order: what T(U)[!duplicated(T(U)), ][1:n, ] gives, but transformed
# and compared in blocks growing from the first n rows, so that a space
# whose numeric parameters make almost every point distinct (the usual
# case) transforms and compares about n rows, not all 64 n of a design or
# of the budget rule's candidates.
typed_first_distinct <- function(space, U, n) {
  m <- nrow(U)
  k <- min(n, m)
  repeat {
    V <- space_transform(space, U[seq_len(k), , drop = FALSE])
    keep <- !duplicated(row_ids(V))
    if (sum(keep) >= n || k == m) break
    k <- min(4L * k, m)
  }
  V <- V[keep, , drop = FALSE]
  V[seq_len(min(n, nrow(V))), , drop = FALSE]
}

# Row ids of the matrix X: for each row, the index of the first row equal
# to it (element by element, as duplicated() compares the rows of a
# matrix), by a hashed match() per column that folds each column's ids
# into the ids of the columns before it (exact in double precision up to
# 9e7 rows).
row_ids <- function(X) {
  n <- nrow(X)
  if (!ncol(X)) return(rep(1L, n))
  id <- match(X[, 1L], X[, 1L])
  for (j in seq_len(ncol(X))[-1L]) {
    key <- (id - 1) * n + match(X[, j], X[, j])
    id <- match(key, key)
  }
  id
}

problem_synthetic.bo_problem_typed <- function(problem, m) {
  s <- NextMethod()
  s$x <- space_transform(problem$space, s$x)
  s
}

problem_in_domain.bo_problem_typed <- function(problem, X, arg, call) {
  NextMethod()
  if (any(space_transform(problem$space, X) != X)) {
    stop_arg(arg, paste("points of the space's encoding (see space_encode()),",
                        "or typed points"), show = FALSE, call = call)
  }
  rep(NA_integer_, nrow(X))
}

# --- users' data --------------------------------------------------------------

# bo_session(initial = ): typed columns named after the parameters.
problem_initial_x <- function(problem, initial, call) {
  UseMethod("problem_initial_x")
}
problem_initial_x.bo_problem <- function(problem, initial, call) {
  xn <- paste0("x", seq_len(problem$d))
  miss <- setdiff(xn, names(initial))
  if (length(miss)) return(list(missing = miss))
  list(X = check_matrix(as.matrix(initial[xn]), d = problem$d,
                        arg = "initial", call = call))
}
problem_initial_x.bo_problem_typed <- function(problem, initial, call) {
  nm <- names(problem$space$params)
  miss <- setdiff(nm, names(initial))
  if (length(miss)) return(list(missing = miss))
  list(X = space_encode_rows(problem$space, initial[nm], "initial", call))
}

# The point of bo_tell(): numeric coordinates of the encoding, or a typed
# point (a named list or a one-row data frame, or what bo_ask() returned).
problem_told_point <- function(problem, x, call) {
  UseMethod("problem_told_point")
}
problem_told_point.bo_problem <- function(problem, x, call) {
  if (!is.numeric(x)) stop_arg("x", "a numeric point", x, call = call)
  if (length(x) != problem$d) {
    stop_arg("x", sprintf("a point of %d coordinates", problem$d), x,
             call = call)
  }
  xn <- paste0("x", seq_len(problem$d))
  if (!is.null(names(x)) && !identical(names(x), xn)) {
    stop_arg("x", sprintf(paste("a point whose coordinates are unnamed or",
                                "named %s, in that order"),
                          paste(xn, collapse = ", ")),
             paste(names(x), collapse = ", "), call = call)
  }
  xm <- check_matrix(as.double(x), d = problem$d, arg = "x", call = call)
  if (nrow(xm) != 1L) stop_arg("x", "one point", x, call = call)
  xm
}
problem_told_point.bo_problem_typed <- function(problem, x, call) {
  if (is.numeric(x)) return(NextMethod())
  xm <- space_encode_rows(problem$space, unclass_point(x), "x", call)
  if (nrow(xm) != 1L) stop_arg("x", "one point", x, call = call)
  xm
}

unclass_point <- function(x) {
  if (is.data.frame(x)) return(x)
  a <- attributes(x)
  x <- unclass(x)
  attributes(x) <- a["names"]
  x
}

# bo_ask() returns the typed point, a named list.
problem_ask_point.bo_problem_typed <- function(problem, step, p) {
  space_point(problem$space, step$x)
}

problem_acq_points.bo_problem_typed <- function(problem, X, call) {
  X <- space_inputs(problem$space, X, "X", call)
  list(X = X, Xx = X)
}

# --- reporting ------------------------------------------------------------------

# The typed parameters in place of the encoded columns x1..xd.
problem_columns.bo_problem_typed <- function(problem, run, df) {
  xn <- paste0("x", seq_len(problem$d))
  typed <- space_decode_rows(problem$space, as.matrix(df[xn]))
  if (!nrow(df)) typed <- typed[0, , drop = FALSE]
  cbind(typed, df[setdiff(names(df), xn)])
}

problem_point_of.bo_problem_typed <- function(problem, x) {
  space_point(problem$space, x)
}

problem_cost_label.bo_problem_typed <- function(problem) {
  if (problem$cost_type == "known" && !is.null(problem$user_cost)) {
    "known (function of the typed point)"
  } else NextMethod()
}

# The user's known cost at the typed points of the rows of X, decoded at
# once (space_values() of the rows, the values space_point() gives each).
problem_known_costs.bo_problem_typed <- function(problem, X) {
  cost <- problem$user_cost
  if (is.null(cost)) return(NextMethod())
  v <- space_values(problem$space, X)
  vapply(seq_len(nrow(X)), function(i) {
    pt <- lapply(v, `[`, i)
    valid_cost(tryCatch(cost(pt), error = function(e) NA_real_))
  }, numeric(1))
}

# the valid points of the space (no corners: they may not be valid points)
problem_candidates.bo_problem_typed <- function(problem, n) {
  problem_design(problem, n)$x
}
