# Plots of runs, in base graphics. Each plot draws from a state (the records
# of a run, or of a session, which holds the same state: plot.bo_session()
# draws through plot.bo_run()) and returns what it drew, so that a plot can
# be checked and redrawn by other means.

#' Plot a run
#'
#' `type = "progress"` (default): the best value found against the
#' cumulative cost, with every evaluation drawn as a point coloured by its
#' cost (the initial design as open circles, failures as crosses at the
#' worst edge of the plot), the budget as a vertical line, a key of the
#' symbols drawn and a key of the costs' colours.
#'
#' `type = "model"`: the models of the objective and of the cost, as slices
#' through the best evaluated point: one panel per input (per parameter of
#' a typed space), showing the posterior mean of the objective's GP and a
#' band of 2 posterior standard deviations along that input, the other
#' inputs fixed at the best point; below, the same slices of the cost: the
#' median and band of 2 standard deviations of the GP of the log cost, on
#' the cost scale, when the cost is measured, or the known cost function.
#' The evaluations are drawn projected onto each slice (grey), the best
#' point in red. A categorical parameter's slice shows each level's mean
#' with its band as an error bar. Not for finite domains (`candidates`).
#'
#' `type = "cost"`: what the costs were, and how well the cost model
#' predicted them. Every evaluation's cost against its number; for a
#' measured cost, also each cost against its leave-one-out prediction: the
#' GP of the log cost with the run's final hyperparameters, conditioned on
#' every other measured cost (median and 2-sd interval, noise included),
#' with the line of perfect prediction.
#'
#' `type = "posterior"` (one-input problems): three panels in the style of
#' Astudillo et al. (2021, Fig. 2): the posterior of the objective with the
#' evaluations, the posterior of the cost (or the known cost), and the
#' policy's acquisition function with its maximizer.
#'
#' `type = "regret"` (problems with control sets that record their
#' noise-free objective, e.g. [test_problem_cvs()]; the default for them):
#' the simple regret of Tay et al. (2023) against the cost spent in the
#' optimization phase, each evaluation drawn as a point coloured by its
#' control set.
#'
#' Values are shown as the objective gives them: for a problem with
#' `maximize = FALSE` (see [bo_problem()]) the best value is the smallest
#' and the best point the one of smallest value.
#'
#' @param x A `bo_run`.
#' @param type `"progress"`, `"model"`, `"cost"`, `"posterior"` or
#'   `"regret"`.
#' @param n_grid Number of grid points of each slice (`type = "model"`; a
#'   slice of an integer parameter has at most one point per integer) and
#'   of the input's grid (`type = "posterior"`).
#' @param ... Graphical parameters, which replace the plot's defaults:
#'   `xlab`, `ylab`, `main`, `xlim`, `ylim`, `log`, `las`, `cex.axis`, ...
#'   for the frame; `col`, `pch`, `cex`, `bg` for the evaluations (a `col`
#'   replaces the colours of the costs, whose key is then left out); `lwd`
#'   and `lty` for the lines. In plots of several panels (`"model"`,
#'   `"cost"`, `"posterior"`), `main` is the figure's title, `xlab` and
#'   `ylab` give one label, or one per panel, and `ylim` the range of the
#'   objective's panels.
#' @return The plotted data, invisibly, as a list:
#'   * `"progress"`: `evaluations` (a data frame with one row per
#'     evaluation: `cumulative_cost`, `value`, `y` where it was drawn,
#'     `cost`, `phase`, `status`, `col`, `pch`), `best` (`cumulative_cost`
#'     and `best_value`, the step line), `budget`, `cost_key` (`range`, the
#'     range of the valid costs; `levels`, the costs shown in the key, and
#'     their `colours`; `log`, whether colours follow the log of the cost;
#'     `NULL` when no key was drawn), `legend` (the entries of the symbols'
#'     key) and the frame's `xlim` and `ylim`.
#'   * `"model"`: `at` (the best point, named coordinates or a typed
#'     point), `objective` (a data frame of the slices: `input`, `x` (the
#'     input's value, or a level's position), `level` (the level of a
#'     categorical parameter, else `NA`), `mean`, `sd`, `lower`, `upper`
#'     (mean -/+ 2 sd), in the objective's direction), `cost` (`input`,
#'     `x`, `level`, `cost` (the median, or the known cost), `lower`,
#'     `upper`; `NULL` without a cost to show), `cost_source` (`"model"`,
#'     `"known"` or `NULL`), `evaluations` (the projected points: `input`,
#'     `x`, `value`, `cost`) and `models` (the fitted GPs `f` and `cost`).
#'   * `"cost"`: `evaluations` (a data frame: `evaluation`, `cost`,
#'     `phase`, `status` and, for a measured cost with a model,
#'     `predicted`, `lower`, `upper`, `inside`), `coverage` (the share of
#'     costs inside their intervals, or `NA`) and `model` (the GP of the log
#'     cost, or `NULL`).
#'   * `"posterior"`: `grid`, `objective` (`mean`, `sd`, `lower`, `upper`
#'     on the grid), `cost` (the known cost, or the median and band, on the
#'     grid), `acquisition` and `maximizer`.
#'   * `"regret"`: a data frame of the optimization phase's evaluations:
#'     `spent`, `regret`, `control_set`.
#' @family runs
#' @examples
#' run <- bo_optimize(test_problem("branin", budget = 40), policy_ei_pu(),
#'                    seed = 1, progress = FALSE)
#' plot(run)
#' # the labels of a report
#' plot(run, main = "EI per unit cost on Branin", xlab = "CPU seconds")
#' # the surrogate and the cost through the best point, one panel per input
#' slices <- plot(run, type = "model", n_grid = 50)
#' head(slices$objective)
#' prob <- bo_problem(function(x) sin(6 * x) - (x - 0.6)^2, lower = 0,
#'                    upper = 1, cost = function(x) 1 + 4 * x, budget = 12)
#' run1 <- bo_optimize(prob, policy_ei_pu(), seed = 1, progress = FALSE)
#' plot(run1, type = "posterior")
#' @export
plot.bo_run <- function(x, type = c("progress", "model", "cost", "posterior",
                                    "regret"),
                        n_grid = 200L, ...) {
  call <- sys.call()
  x <- upgrade_state(x)
  types <- c("progress", "model", "cost", "posterior", "regret")
  has_regret <- !is.null(problem_regret_curve(x$problem, x))
  if (identical(type, types)) type <- if (has_regret) "regret" else "progress"
  type <- check_choice(type, types)
  n_grid <- check_count(n_grid, min = 10L)
  dots <- check_dots(list(...), call)
  out <- switch(type,
    progress = plot_progress(x, dots),
    model = plot_model(x, n_grid, dots, call),
    cost = plot_cost(x, dots),
    posterior = plot_posterior(x, n_grid, dots, call),
    regret = {
      if (!has_regret) {
        stop_arg("type", paste("\"regret\" only for a problem with control",
                               "sets that records its noise-free objective",
                               "and optimum"), type, call = call)
      }
      plot_cvs_regret(x, dots)
    })
  invisible(out)
}

# --- graphical parameters ------------------------------------------------------

`%||%` <- function(a, b) if (is.null(a)) b else a

# The parameters that go to the points and to the lines rather than to the
# frame of a plot.
point_pars <- c("col", "pch", "cex", "bg")
line_pars <- c("lwd", "lty")

# `...` of a plot: graphical parameters, each named.
check_dots <- function(dots, call) {
  nm <- names(dots)
  if (length(dots) && (is.null(nm) || anyNA(nm) || any(!nzchar(nm)))) {
    stop_arg("...", "named graphical parameters (e.g. xlab = , ylim = )",
             dots, call = call, show = FALSE)
  }
  dots
}

# The arguments of a plotting call: the user's parameters `dots` over the
# `defaults`, without those named in `drop`.
plot_args <- function(defaults, dots, drop = character()) {
  dots <- dots[setdiff(names(dots), drop)]
  c(dots, defaults[setdiff(names(defaults), names(dots))])
}

# The user's value of parameter `name` for panel `i` (a value, or one per
# panel), else `default`.
panel_par <- function(dots, name, i, default) {
  v <- dots[[name]]
  if (is.null(v)) default else v[[(i - 1L) %% length(v) + 1L]]
}

# An empty frame with the user's parameters over `defaults`.
plot_frame <- function(defaults, dots) {
  args <- plot_args(defaults, dots, c(point_pars, line_pars))
  do.call(graphics::plot, c(list(x = NA_real_, y = NA_real_, type = "n"),
                            args))
  invisible(args)
}

# The first of the corners of the current plot (in the order given) whose
# area under a legend of arguments `args` holds the fewest of the points
# (px, py).
legend_corner <- function(args, px, py,
                          corners = c("topright", "topleft", "bottomright",
                                      "bottomleft")) {
  usr <- graphics::par("usr")
  keep <- is.finite(px) & is.finite(py)
  px <- px[keep]
  py <- py[keep]
  if (graphics::par("xlog")) px <- log10(px)
  if (graphics::par("ylog")) py <- log10(py)
  fx <- (px - usr[1L]) / (usr[2L] - usr[1L])
  fy <- (py - usr[3L]) / (usr[4L] - usr[3L])
  r <- do.call(graphics::legend, c(list(x = "topleft", plot = FALSE),
                                   args))$rect
  w <- r$w / (usr[2L] - usr[1L]) + 0.02
  h <- r$h / (usr[4L] - usr[3L]) + 0.02
  n <- vapply(corners, function(k) {
    inx <- if (grepl("left", k)) fx <= w else fx >= 1 - w
    iny <- if (grepl("top", k)) fy >= 1 - h else fy <= h
    sum(inx & iny)
  }, 0)
  corners[which.min(n)]
}

# Colours of costs on a palette from dark (cheap) to light (expensive),
# following the log of the cost when the costs span a factor of 10 or
# more; invalid costs are grey. Returns list(col, range, levels, colours,
# log): the key shows `levels` (the range's ends and two costs between
# them) in `colours`.
cost_key <- function(cost, n = 64L) {
  pal <- grDevices::hcl.colors(round(n / 0.85), "viridis")[seq_len(n)]
  ok <- is.finite(cost) & cost > 0
  col <- rep("grey50", length(cost))
  if (!any(ok)) {
    return(list(col = col, range = c(NA_real_, NA_real_), levels = double(),
                colours = character(), log = FALSE))
  }
  rng <- range(cost[ok])
  lg <- rng[2L] >= 10 * rng[1L]
  tr <- if (lg) log else identity
  at <- function(v) {
    if (rng[2L] > rng[1L]) {
      1L + round((n - 1L) * (tr(v) - tr(rng[1L])) / (tr(rng[2L]) - tr(rng[1L])))
    } else rep(1L, length(v))
  }
  col[ok] <- pal[at(cost[ok])]
  levels <- if (rng[2L] > rng[1L]) {
    s <- seq(tr(rng[1L]), tr(rng[2L]), length.out = 4L)
    c(rng[1L], if (lg) exp(s[2:3]) else s[2:3], rng[2L])
  } else rng[1L]
  list(col = col, range = rng, levels = levels, colours = pal[at(levels)],
       log = lg)
}

# The title of a run's plots.
plot_title <- function(state) {
  sprintf("%s on \"%s\"", state$policy$label, state$problem$name)
}

# The corners of a right-continuous step function through (x, y).
step_xy <- function(x, y) {
  n <- length(x)
  list(x = c(x[1L], rep(x[-1L], each = 2L)),
       y = c(rep(y[-n], each = 2L), y[n]))
}

# --- progress --------------------------------------------------------------------

plot_progress <- function(state, dots) {
  pr <- state$problem
  df <- as.data.frame.bo_run(state)
  if (nrow(df) == 0L) stop_costbo("the run has no evaluations to plot")
  n <- nrow(df)
  ok <- df$status == "ok"
  mx <- problem_maximize(pr)
  cum <- df$cumulative_cost
  best <- df$best_value
  key <- cost_key(df$cost)
  # (a run whose evaluations all failed has no value to scale by)
  shown <- c(df$value[ok], best)
  shown <- shown[is.finite(shown)]
  yr <- if (length(shown)) range(shown) else c(0, 1)
  frame <- plot_frame(list(
    xlim = range(c(0, cum, state$budget), na.rm = TRUE), ylim = yr,
    xlab = "cumulative cost",
    ylab = if (mx) "objective value" else "objective value (minimized)",
    main = plot_title(state)), dots)
  graphics::abline(v = state$budget, lty = 3, col = "grey40")
  lwd <- panel_par(dots, "lwd", 1L, 2)
  lty <- panel_par(dots, "lty", 1L, 1)
  graphics::lines(cum, best, type = "s", lwd = lwd, lty = lty)
  # failures at the worst edge: the bottom when maximizing, else the top
  y <- ifelse(ok, df$value, if (mx) frame$ylim[1L] else frame$ylim[2L])
  pch <- if (is.null(dots$pch)) {
    ifelse(!ok, 4, ifelse(df$phase == "initial", 1, 19))
  } else rep_len(dots$pch, n)
  user_col <- !is.null(dots$col)
  col <- if (user_col) rep_len(dots$col, n) else key$col
  graphics::points(cum, y, pch = pch, col = col,
                   cex = if (is.null(dots$cex)) 1 else dots$cex, bg = dots$bg)
  # the keys: only what was drawn
  sym <- grDevices::adjustcolor(if (user_col) col[1L] else "grey25")
  entries <- data.frame(
    label = c("best so far", "evaluation", "initial design", "failed",
              "budget"),
    drawn = c(any(!is.na(best)), any(ok & df$phase != "initial"),
              any(ok & df$phase == "initial"), any(!ok), TRUE),
    pch = c(NA, 19, 1, 4, NA), lty = c(lty, NA, NA, NA, 3),
    lwd = c(lwd, NA, NA, NA, 1), stringsAsFactors = FALSE)
  entries <- entries[entries$drawn, , drop = FALSE]
  if (!is.null(dots$pch)) entries$pch[!is.na(entries$pch)] <- dots$pch[1L]
  sym_args <- list(legend = entries$label, pch = entries$pch,
                   lty = entries$lty, lwd = entries$lwd,
                   col = ifelse(entries$label == "budget", "grey40",
                                ifelse(entries$label == "best so far",
                                       "black", sym)),
                   bty = "n", cex = 0.8)
  bx <- step_xy(cum, ifelse(is.na(best), NA, best))
  px <- c(cum, bx$x)
  py <- c(y, bx$y)
  corner <- legend_corner(sym_args, px, py)
  do.call(graphics::legend, c(list(x = corner), sym_args))
  show_key <- !user_col && length(key$levels) > 1L
  if (show_key) {
    key_args <- list(legend = vapply(key$levels, format, "", digits = 3),
                     pch = 19, col = key$colours, title = "cost", bty = "n",
                     cex = 0.8)
    rest <- setdiff(c("topright", "topleft", "bottomright", "bottomleft"),
                    corner)
    do.call(graphics::legend,
            c(list(x = legend_corner(key_args, px, py, rest)), key_args))
  }
  list(evaluations = data.frame(cumulative_cost = cum, value = df$value,
                                y = y, cost = df$cost, phase = df$phase,
                                status = df$status, col = col, pch = pch,
                                stringsAsFactors = FALSE),
       best = data.frame(cumulative_cost = cum, best_value = best),
       budget = state$budget,
       cost_key = if (show_key) key[c("range", "levels", "colours", "log")],
       legend = entries$label, xlim = frame$xlim, ylim = frame$ylim)
}

# --- the models, sliced through the best point ---------------------------------

# The slices through the point `at` (a row of the state's X) along each
# input of the problem: for each, its name, kind ("num", "int" or "cat"),
# the positions `x` drawn, the `levels` of a categorical parameter, whether
# the axis is logarithmic, the model's points `U` (one row per position)
# and the positions of the state's evaluations `xo`.
model_slices <- function(pr, at, X, n_grid) {
  if (is.null(pr$space)) {
    return(lapply(seq_len(pr$d), function(i) {
      g <- seq(pr$lower[i], pr$upper[i], length.out = n_grid)
      U <- matrix(at, length(g), pr$d, byrow = TRUE)
      U[, i] <- g
      list(name = paste0("x", i), kind = "num", x = g, levels = NULL,
           log = FALSE, U = U, xo = X[, i], at = at[i])
    }))
  }
  sp <- pr$space
  best <- space_decode_rows(sp, matrix(at, 1L))
  obs <- space_decode_rows(sp, X)
  lapply(seq_along(sp$params), function(i) {
    p <- sp$params[[i]]
    nm <- names(sp$params)[i]
    v <- switch(p$type,
      num = if (p$log) {
        exp(seq(log(p$lower), log(p$upper), length.out = n_grid))
      } else seq(p$lower, p$upper, length.out = n_grid),
      int = if (p$upper - p$lower + 1 <= n_grid) {
        seq(p$lower, p$upper)
      } else unique(round(if (p$log) {
        exp(seq(log(p$lower), log(p$upper), length.out = n_grid))
      } else seq(p$lower, p$upper, length.out = n_grid))),
      cat = p$levels)
    rows <- best[rep(1L, length(v)), , drop = FALSE]
    rows[[nm]] <- if (p$type == "cat") factor(v, levels = p$levels) else v
    U <- space_encode_rows(sp, rows, "x", NULL)
    pos <- function(w) if (p$type == "cat") match(as.character(w), p$levels) else w
    list(name = nm, kind = p$type, x = pos(v),
         levels = if (p$type == "cat") p$levels, log = isTRUE(p$log), U = U,
         xo = pos(obs[[nm]]), at = pos(best[[nm]]))
  })
}

plot_model <- function(state, n_grid, dots, call) {
  pr <- state$problem
  if (inherits(pr, "bo_problem_finite")) {
    stop_arg("type", paste("\"progress\" or \"cost\" for a problem with",
                           "candidate points (a finite domain has no",
                           "slices)"), "model", call = call)
  }
  obj <- state_objective(state)
  if (sum(obj) < 2L) {
    stop_costbo("the run has fewer than two successful evaluations: there is no model to plot",
                call = call)
  }
  st <- state_fit(state)
  best_i <- which(obj)[which.max(state$value[obj])]
  at <- state$X[best_i, ]
  sl <- model_slices(pr, at, state$X, n_grid)
  # the objective along each slice, in the user's direction
  objective <- do.call(rbind, lapply(sl, function(s) {
    pf <- predict(st$models$f, problem_model_newdata(pr, s$U))
    m <- user_value(pr, pf$mean)
    data.frame(input = s$name, x = s$x,
               level = if (is.null(s$levels)) NA_character_ else s$levels,
               mean = m, sd = pf$sd, lower = m - 2 * pf$sd,
               upper = m + 2 * pf$sd, stringsAsFactors = FALSE)
  }))
  cost_source <- if (pr$cost_type == "measured" && !is.null(st$models$cost)) {
    "model"
  } else if (pr$cost_type == "known" &&
             !identical(attr(pr$cost, "costbo_cost")$kind, "const")) "known"
  cost <- if (!is.null(cost_source)) do.call(rbind, lapply(sl, function(s) {
    if (cost_source == "model") {
      pc <- predict(st$models$cost, s$U)
      v <- exp(pc$mean)
      lo <- exp(pc$mean - 2 * pc$sd)
      up <- exp(pc$mean + 2 * pc$sd)
    } else {
      v <- lo <- up <- apply(s$U, 1L, pr$cost)
    }
    data.frame(input = s$name, x = s$x,
               level = if (is.null(s$levels)) NA_character_ else s$levels,
               cost = v, lower = lo, upper = up, stringsAsFactors = FALSE)
  }))
  value <- ifelse(obj, user_value(pr, state$value), NA_real_)
  evaluations <- do.call(rbind, lapply(sl, function(s) {
    data.frame(input = s$name, x = s$xo, value = value, cost = state$cost,
               stringsAsFactors = FALSE)
  }))
  # one column per input (at most 4 a row); the cost's rows below
  k <- length(sl)
  nc <- min(k, 4L)
  nr <- ceiling(k / nc)
  old <- graphics::par(mfrow = c(nr * (1L + !is.null(cost)), nc),
                       mar = c(3.4, 3.6, 0.8, 0.6), mgp = c(2.1, 0.6, 0),
                       oma = c(0, 0, 3.6, 0), tcl = -0.3)
  on.exit(graphics::par(old))
  graphics::par(cex = 0.85)
  band_col <- grDevices::adjustcolor("steelblue", 0.3)
  cost_col <- grDevices::adjustcolor("darkorange", 0.3)
  lwd <- panel_par(dots, "lwd", 1L, 2)
  ylab_obj <- if (problem_maximize(pr)) "objective" else "objective (minimized)"
  best_value <- user_value(pr, state$value[best_i])
  for (i in seq_len(k)) {
    s <- sl[[i]]
    o <- objective[objective$input == s$name, , drop = FALSE]
    yl <- range(c(o$lower, o$upper, value), finite = TRUE)
    slice_panel(s, o$mean, o$lower, o$upper, value, best_value, yl,
                ylab_obj, band_col, lwd, dots, i, obj_row = TRUE)
  }
  if (!is.null(cost)) {
    cv <- ifelse(is.na(state$cost), NA_real_, state$cost)
    for (i in seq_len(k)) {
      s <- sl[[i]]
      o <- cost[cost$input == s$name, , drop = FALSE]
      shown <- cv
      yl <- range(c(o$lower, o$upper, shown), finite = TRUE)
      slice_panel(s, o$cost, o$lower, o$upper, shown,
                  if (cost_source == "model") cv[best_i] else pr$cost(at),
                  yl, if (cost_source == "model") "cost (model)" else
                    "cost (known)",
                  cost_col, lwd, dots, k + i, obj_row = FALSE)
    }
  }
  graphics::mtext(if (is.null(dots$main)) {
    paste0(plot_title(state), ": slices through the best point")
  } else dots$main, side = 3, line = 2.1, outer = TRUE, font = 2,
  cex = 1.1)
  modelled <- identical(cost_source, "model")
  outer_legend(c(if (modelled) "posterior mean (cost: median)" else
                   "posterior mean",
                 "mean +/- 2 sd",
                 if (modelled) "cost: +/- 2 sd of the log",
                 "evaluations (projected)", "best point"),
               line = 0.8,
               pch = c(NA, 15, if (modelled) 15, 19, 18),
               lty = c(1, NA, if (modelled) NA, NA, NA),
               lwd = c(lwd, NA, if (modelled) NA, NA, NA),
               pt.cex = c(NA, 2, if (modelled) 2, 0.8, 1.4),
               col = c("black", band_col, if (modelled) cost_col, "grey55",
                       "firebrick"))
  list(at = problem_point_of(pr, at), objective = objective, cost = cost,
       cost_source = cost_source, evaluations = evaluations,
       models = st$models)
}

# One slice: the curve m with its band [lo, up] along s$x (error bars at the
# levels of a categorical parameter or a few integers), the evaluations
# (projected, grey) and the best point (red).
slice_panel <- function(s, m, lo, up, yo, ybest, yl, ylab, band, lwd, dots,
                        i, obj_row) {
  few <- s$kind == "cat" || (s$kind == "int" && length(s$x) <= 25L)
  log_axis <- paste0(if (s$log) "x" else "", if (obj_row) "" else "y")
  defaults <- list(xlim = if (s$kind == "cat") c(0.5, length(s$x) + 0.5) else
                     range(s$x),
                   ylim = yl, xlab = s$name, ylab = ylab, log = log_axis,
                   xaxt = if (s$kind == "cat") "n" else "s")
  user <- dots[setdiff(names(dots), c("main", "xlab", "ylab",
                                      if (!obj_row) c("ylim", "log")))]
  user$xlab <- panel_par(dots, "xlab", i, NULL)
  user$ylab <- panel_par(dots, "ylab", i, NULL)
  user <- Filter(Negate(is.null), user)
  plot_frame(defaults, user)
  if (s$kind == "cat") {
    graphics::axis(1, at = seq_along(s$levels), labels = s$levels)
  }
  if (few) {
    graphics::segments(s$x, lo, s$x, up, lwd = 10, lend = 1,
                       col = grDevices::adjustcolor(band, 2))
    graphics::points(s$x, m, pch = 19, cex = 0.9)
    if (s$kind == "int") graphics::lines(s$x, m, lwd = lwd / 2)
  } else {
    graphics::polygon(c(s$x, rev(s$x)), c(lo, rev(up)), col = band,
                      border = NA)
    graphics::lines(s$x, m, lwd = lwd)
  }
  jitter <- if (s$kind == "cat") 0.12 else 0
  graphics::points(s$xo + jitter, yo, pch = 19, cex = 0.6,
                   col = grDevices::adjustcolor("grey40", 0.6))
  graphics::abline(v = s$at, lty = 2, col = "grey60")
  graphics::points(s$at, ybest, pch = 18, cex = 1.5, col = "firebrick")
}

# A legend across the top of the figure, in its outer margin, under the
# title.
outer_legend <- function(legend, line, ...) {
  # the height of `line` lines of the outer margin above the panels, on
  # the device (from 0 to 1)
  y <- graphics::grconvertY(1, "nic", "ndc") +
    line * graphics::par("csi") / graphics::par("din")[2L]
  old <- graphics::par(fig = c(0, 1, 0, 1), oma = c(0, 0, 0, 0),
                       mar = c(0, 0, 0, 0), cex = 1, xaxs = "i",
                       yaxs = "i", new = TRUE)
  on.exit(graphics::par(old))
  graphics::plot.new()
  graphics::legend(0.5, y, legend = legend, horiz = TRUE, bty = "n",
                   cex = 0.85, xjust = 0.5, yjust = 0.5, text.width = NA,
                   x.intersp = 0.6, ...)
}

# --- costs --------------------------------------------------------------------------

# Leave-one-out predictions of the measured costs: the GP of the log cost
# with the final fit's hyperparameters, conditioned on every other valid
# cost, at each evaluation with a valid cost; NULL without a cost model.
# Returns a data frame (row, mean, sd) on the log scale (sd of an
# observation: the noise included).
cost_loo <- function(state, model) {
  pr <- state$problem
  valid <- which(!is.na(state$cost))
  if (is.null(model) || length(valid) < 3L) return(NULL)
  cf <- coef(model)
  X <- state$X[valid, , drop = FALSE]
  lc <- log(state$cost[valid])
  box <- if (is.null(pr$space)) {
    list(lower = pr$lower, upper = pr$upper)
  } else list(space = pr$space)
  out <- vapply(seq_along(valid), function(j) {
    g <- do.call(gp_fit, c(list(
      X = X[-j, , drop = FALSE], y = lc[-j], kernel = model$kernel,
      mean = cf$mean, estimate = "fixed", noise = cf$noise,
      lengthscale = cf$lengthscale, outputscale = cf$outputscale), box))
    p <- predict(g, X[j, , drop = FALSE])
    c(p$mean, sqrt(p$sd^2 + cf$noise))
  }, numeric(2))
  data.frame(row = valid, mean = out[1L, ], sd = out[2L, ])
}

plot_cost <- function(state, dots) {
  pr <- state$problem
  df <- as.data.frame.bo_run(state)
  if (nrow(df) == 0L) stop_costbo("the run has no evaluations to plot")
  n <- nrow(df)
  ev <- data.frame(evaluation = seq_len(n), cost = df$cost, phase = df$phase,
                   status = df$status, stringsAsFactors = FALSE)
  model <- NULL
  loo <- NULL
  if (pr$cost_type == "measured") {
    model <- state_fit(state)$models$cost
    loo <- cost_loo(state, model)
  }
  if (!is.null(loo)) {
    ev$predicted <- NA_real_
    ev$lower <- NA_real_
    ev$upper <- NA_real_
    ev$predicted[loo$row] <- exp(loo$mean)
    ev$lower[loo$row] <- exp(loo$mean - 2 * loo$sd)
    ev$upper[loo$row] <- exp(loo$mean + 2 * loo$sd)
    ev$inside <- ev$cost >= ev$lower & ev$cost <= ev$upper
  }
  coverage <- if (is.null(loo)) NA_real_ else mean(ev$inside, na.rm = TRUE)
  panels <- 1L + !is.null(loo)
  old <- graphics::par(mfrow = c(1L, panels), mar = c(3.6, 3.8, 2.2, 0.8),
                       mgp = c(2.2, 0.7, 0), oma = c(0, 0, 2, 0))
  on.exit(graphics::par(old))
  valid <- !is.na(ev$cost)
  pch <- if (is.null(dots$pch)) ifelse(ev$phase == "initial", 1, 19) else
    rep_len(dots$pch, n)
  col <- if (is.null(dots$col)) rep("black", n) else rep_len(dots$col, n)
  cex <- if (is.null(dots$cex)) 0.9 else dots$cex
  lwd <- panel_par(dots, "lwd", 1L, 1)
  bar <- grDevices::adjustcolor("darkorange", 0.6)
  panel_user <- function(i) {
    u <- dots[setdiff(names(dots), c("main", "xlab", "ylab"))]
    u$xlab <- panel_par(dots, "xlab", i, NULL)
    u$ylab <- panel_par(dots, "ylab", i, NULL)
    Filter(Negate(is.null), u)
  }
  if (!is.null(loo)) {
    k <- loo$row
    lims <- range(c(ev$cost[k], ev$lower[k], ev$upper[k]))
    plot_frame(list(xlim = lims, ylim = lims, log = "xy",
                    xlab = "measured cost",
                    ylab = "predicted cost (leave-one-out)",
                    main = sprintf("%d of %d inside their 2-sd intervals",
                                   sum(ev$inside[k]), length(k))),
               panel_user(1L))
    graphics::abline(0, 1, lty = 2, col = "grey50")
    graphics::segments(ev$cost[k], ev$lower[k], ev$cost[k], ev$upper[k],
                       col = bar, lwd = 2 * lwd)
    graphics::points(ev$cost[k], ev$predicted[k], pch = pch[k], col = col[k],
                     cex = cex)
    leg <- list(legend = c("predicted median", "2-sd interval",
                           "perfect prediction"),
                pch = c(19, NA, NA), lty = c(NA, 1, 2),
                lwd = c(NA, 2 * lwd, 1), col = c(col[1L], bar, "grey50"),
                bty = "n", cex = 0.8)
    # above the line of perfect prediction, where a prediction is too high
    do.call(graphics::legend,
            c(list(x = legend_corner(leg, c(ev$cost[k], ev$cost[k]),
                                     c(ev$lower[k], ev$upper[k]),
                                     c("topleft", "bottomright"))), leg))
  }
  cr <- range(c(ev$cost[valid], ev$lower, ev$upper), na.rm = TRUE)
  if (!all(is.finite(cr))) cr <- c(1, 2)
  lg <- cr[2L] >= 10 * cr[1L]
  # headroom for the key
  top <- if (lg) cr[2L] * (cr[2L] / cr[1L])^0.25 else
    cr[2L] + 0.25 * max(diff(cr), 0.1 * cr[2L])
  plot_frame(list(xlim = c(1, max(n, 2L)), ylim = c(cr[1L], top),
                  log = if (lg) "y" else "",
                  xlab = "evaluation", ylab = "cost",
                  main = "cost of each evaluation"), panel_user(panels))
  if (!is.null(loo)) {
    graphics::segments(ev$evaluation, ev$lower, ev$evaluation, ev$upper,
                       col = bar, lwd = 2 * lwd)
  }
  graphics::points(ev$evaluation[valid], ev$cost[valid], pch = pch[valid],
                   col = col[valid], cex = cex)
  shown <- c(any(valid & ev$phase == "initial"),
             any(valid & ev$phase != "initial"), !is.null(loo))
  leg <- list(legend = c("initial design", "evaluation",
                         "leave-one-out 2-sd interval")[shown],
              pch = c(if (is.null(dots$pch)) c(1, 19) else
                rep(dots$pch[1L], 2L), NA)[shown],
              lty = c(NA, NA, 1)[shown], lwd = c(NA, NA, 2 * lwd)[shown],
              col = c(col[1L], col[1L], bar)[shown], bty = "n", cex = 0.8)
  do.call(graphics::legend,
          c(list(x = legend_corner(leg, rep(ev$evaluation, 3L),
                                   c(ev$cost, ev$lower %||% ev$cost,
                                     ev$upper %||% ev$cost),
                                   c("topright", "topleft"))), leg))
  graphics::mtext(if (is.null(dots$main)) {
    paste0(plot_title(state), ": cost ", problem_cost_label(pr))
  } else dots$main, side = 3, line = 0.5, outer = TRUE, font = 2)
  list(evaluations = ev, coverage = coverage, model = model)
}

# --- one input: the posterior and the acquisition --------------------------------

plot_posterior <- function(state, n_grid, dots, call) {
  pr <- state$problem
  if (pr$d != 1L || is.finite(problem_n_points(pr))) {
    stop_arg("type", paste("\"progress\", \"model\" or \"cost\" unless the",
                           "problem has one continuous input"),
             "posterior", call = call)
  }
  st <- state_fit(state)
  grid <- matrix(seq(pr$lower, pr$upper, length.out = n_grid))
  g <- grid[, 1L]
  pf <- predict(st$models$f, problem_model_newdata(pr, grid))
  ok <- state_objective(st)
  acq <- st$policy$acquisition(st, grid)
  old <- graphics::par(mfrow = c(3L, 1L), mar = c(3.5, 4, 1.8, 1),
                       mgp = c(2, 0.7, 0), oma = c(0, 0, 1.8, 0))
  on.exit(graphics::par(old))
  graphics::par(cex = 0.85)
  lwd <- panel_par(dots, "lwd", 1L, 2)
  user <- function(i, drop = character()) {
    u <- dots[setdiff(names(dots), c("main", "xlab", "ylab", drop))]
    u$xlab <- panel_par(dots, "xlab", i, NULL)
    u$ylab <- panel_par(dots, "ylab", i, NULL)
    Filter(Negate(is.null), u)
  }
  band <- function(m, lo, up, col) {
    graphics::polygon(c(g, rev(g)), c(lo, rev(up)), col = col, border = NA)
    graphics::lines(g, m, lwd = lwd)
  }
  m <- user_value(pr, pf$mean)
  objective <- data.frame(mean = m, sd = pf$sd, lower = m - 2 * pf$sd,
                          upper = m + 2 * pf$sd)
  yo <- user_value(pr, state$value[ok])
  plot_frame(list(xlim = range(g), ylim = range(c(objective$lower,
                                                  objective$upper, yo)),
                  xlab = "x", ylab = if (problem_maximize(pr)) "objective"
                  else "objective (minimized)",
                  main = "posterior of the objective (mean +/- 2 sd)"),
             user(1L))
  band(m, objective$lower, objective$upper,
       grDevices::adjustcolor("steelblue", 0.3))
  graphics::points(state$X[ok, 1L], yo,
                   pch = if (is.null(dots$pch)) 19 else dots$pch,
                   col = if (is.null(dots$col)) "black" else dots$col,
                   cex = if (is.null(dots$cex)) 1 else dots$cex)
  cost <- NULL
  valid <- !is.na(state$cost)
  if (pr$cost_type == "known") {
    cost <- data.frame(cost = apply(grid, 1L, pr$cost))
    cost$lower <- cost$upper <- cost$cost
    plot_frame(list(xlim = range(g), ylim = range(cost$cost), xlab = "x",
                    ylab = "cost", main = "known cost"), user(2L, "ylim"))
    graphics::lines(g, cost$cost, lwd = lwd)
  } else if (!is.null(st$models$cost)) {
    pc <- predict(st$models$cost, grid)
    cost <- data.frame(cost = exp(pc$mean), lower = exp(pc$mean - 2 * pc$sd),
                       upper = exp(pc$mean + 2 * pc$sd))
    plot_frame(list(xlim = range(g), log = "y",
                    ylim = range(c(cost$lower, cost$upper,
                                   state$cost[valid])),
                    xlab = "x", ylab = "cost",
                    main = "posterior of the cost (median, +/- 2 sd of the log cost)"),
               user(2L, "ylim"))
    band(cost$cost, cost$lower, cost$upper,
         grDevices::adjustcolor("darkorange", 0.3))
    graphics::points(state$X[valid, 1L], state$cost[valid], pch = 19)
  } else {
    plot_frame(list(xlim = range(g), ylim = range(state$cost[valid]),
                    xlab = "x", ylab = "cost", main = "observed costs"),
               user(2L, "ylim"))
    graphics::points(state$X[valid, 1L], state$cost[valid], pch = 19)
  }
  plot_frame(list(xlim = range(g), ylim = range(acq, finite = TRUE),
                  xlab = "x", ylab = "acquisition",
                  main = st$policy$label), user(3L, "ylim"))
  graphics::lines(g, acq, lwd = lwd)
  i <- which.max(acq)
  graphics::abline(v = g[i], lty = 2, col = "firebrick")
  graphics::mtext(if (is.null(dots$main)) plot_title(state) else dots$main,
                  side = 3, line = 0.4, outer = TRUE, font = 2)
  list(grid = g, objective = objective, cost = cost, acquisition = acq,
       maximizer = g[i])
}

# --- control sets: the simple regret ----------------------------------------------

plot_cvs_regret <- function(state, dots) {
  df <- as.data.frame.bo_run(state)
  bo <- df$phase == "bo" & !is.na(df$simple_regret)
  if (!any(bo)) stop_costbo("the run has no evaluations after its initial design")
  spent <- cumsum(ifelse(df$phase == "bo" & state$charged, df$cost, 0))[bo]
  r <- df$simple_regret[bo]
  cs <- df$control_set[bo]
  m <- length(state$problem$control_sets)
  pal <- grDevices::hcl.colors(max(m, 2L), "Dark 3")
  plot_frame(list(xlim = range(c(spent, state$budget)), ylim = range(r),
                  log = if (all(r > 0)) "y" else "", xlab = "cost spent",
                  ylab = "simple regret", main = plot_title(state)), dots)
  graphics::lines(spent, r, type = "s", lwd = panel_par(dots, "lwd", 1L, 2),
                  lty = panel_par(dots, "lty", 1L, 1))
  col <- if (is.null(dots$col)) pal[cs] else rep_len(dots$col, length(r))
  graphics::points(spent, r, pch = if (is.null(dots$pch)) 19 else dots$pch,
                   cex = if (is.null(dots$cex)) 0.7 else dots$cex, col = col)
  graphics::abline(v = state$budget, lty = 3, col = "grey40")
  used <- sort(unique(cs))
  sets <- vapply(state$problem$control_sets[used], function(s) {
    paste0("{", paste(s, collapse = ","), "}")
  }, "")
  if (is.null(dots$col)) {
    leg <- list(legend = paste0(sets, " (cost ",
                                format(state$problem$control_costs[used]),
                                ")"),
                pch = 19, col = pal[used], bty = "n", cex = 0.75,
                title = "control set")
    do.call(graphics::legend, c(list(x = legend_corner(leg, spent, r)), leg))
  }
  data.frame(spent = spent, regret = r, control_set = cs)
}
