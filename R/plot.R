# Plots of runs, in base graphics.

#' Plot a run
#'
#' `type = "progress"` (default): the best value found against the cumulative
#' cost, with every evaluation drawn as a point coloured by its cost (the
#' initial design as open circles, failures as crosses) and the budget as a
#' vertical line. `type = "posterior"` (one-input problems): three panels in
#' the style of Astudillo et al. (2021, Fig. 2): the posterior of the
#' objective with the evaluations, the posterior of the cost (or the known
#' cost), and the policy's acquisition function with its maximizer.
#' `type = "regret"` (problems with control sets that record their
#' noise-free objective, e.g. [test_problem_cvs()]; the default for them):
#' the simple regret of Tay et al. (2023) against the cost spent in the
#' optimization phase, each evaluation drawn as a point coloured by its
#' control set.
#'
#' @param x A `bo_run`.
#' @param type `"progress"`, `"posterior"` or `"regret"`.
#' @param n_grid Number of grid points for `type = "posterior"`.
#' @param ... Further graphical parameters for the progress plot.
#' @return `x`, invisibly.
#' @family runs
#' @examples
#' run <- bo_optimize(test_problem("branin", budget = 5), policy_ei_pu(),
#'                    seed = 1, progress = FALSE)
#' plot(run)
#' prob <- bo_problem(function(x) sin(6 * x) - (x - 0.6)^2, lower = 0,
#'                    upper = 1, cost = function(x) 1 + 4 * x, budget = 8)
#' run1 <- bo_optimize(prob, policy_ei_pu(), seed = 1, progress = FALSE)
#' plot(run1, type = "posterior")
#' @export
plot.bo_run <- function(x, type = c("progress", "posterior", "regret"),
                        n_grid = 200L, ...) {
  x <- upgrade_state(x)
  has_regret <- !is.null(problem_regret_curve(x$problem, x))
  if (identical(type, c("progress", "posterior", "regret")) && has_regret) {
    type <- "regret"
  }
  type <- check_choice(type, c("progress", "posterior", "regret"))
  n_grid <- check_count(n_grid, min = 10L)
  if (type == "regret") {
    if (!has_regret) {
      stop_arg("type", paste("\"regret\" only for a problem with control sets",
                             "that records its noise-free objective and optimum"),
               type)
    }
    plot_cvs_regret(x, ...)
  } else if (type == "posterior") {
    plot_posterior(x, n_grid)
  } else {
    plot_progress(x, ...)
  }
  invisible(x)
}

cost_palette <- function(cost) {
  pal <- grDevices::hcl.colors(64L, "viridis")
  ok <- is.finite(cost)
  rng <- range(cost[ok])
  idx <- rep(1L, length(cost))
  if (diff(rng) > 0) {
    idx[ok] <- 1L + floor(63 * (cost[ok] - rng[1L]) / diff(rng))
  }
  col <- pal[idx]
  col[!ok] <- "grey50"
  list(col = col, pal = pal, range = rng)
}

plot_progress <- function(x, ...) {
  df <- as.data.frame(x)
  if (nrow(df) == 0L) stop_costbo("the run has no evaluations to plot")
  ok <- df$status == "ok"
  cum <- df$cumulative_cost
  # the best value so far (of the objective, source 0, with information
  # sources), in the problem's direction
  best <- df$best_value
  pc <- cost_palette(df$cost)
  yl <- range(c(df$value[ok], best), na.rm = TRUE)
  graphics::plot(cum, ifelse(ok, df$value, NA), type = "n", ylim = yl,
                 xlab = "cumulative cost", ylab = "objective value",
                 main = sprintf("%s on \"%s\"", x$policy$label,
                                x$problem$name), ...)
  graphics::abline(v = x$budget, lty = 3, col = "grey40")
  graphics::lines(cum, best, type = "s", lwd = 2)
  pch <- ifelse(df$phase == "initial", 1, 19)
  pch[!ok] <- 4
  yv <- ifelse(ok, df$value, yl[1L])
  graphics::points(cum, yv, pch = pch, col = pc$col)
  graphics::legend("bottomright", bty = "n", cex = 0.8,
                   legend = c("best so far", "evaluation (colour: cost)",
                              "initial design", "failed"),
                   lty = c(1, NA, NA, NA), lwd = c(2, NA, NA, NA),
                   pch = c(NA, 19, 1, 4),
                   col = c("black", pc$pal[48L], pc$pal[48L], "grey50"))
  graphics::mtext(sprintf("cost from %s (dark) to %s (light)",
                          format(pc$range[1L], digits = 3),
                          format(pc$range[2L], digits = 3)),
                  side = 3, line = 0.2, cex = 0.75)
}

plot_posterior <- function(x, n_grid) {
  pr <- x$problem
  if (pr$d != 1L || !is.null(pr$candidates)) {
    stop_arg("type", "\"progress\" unless the problem has one continuous input",
             "posterior")
  }
  state <- state_fit(x)
  grid <- matrix(seq(pr$lower, pr$upper, length.out = n_grid))
  pf <- predict(state$models$f, problem_model_newdata(pr, grid))
  ok <- state_objective(state)
  acq <- state$policy$acquisition(state, grid)
  old <- graphics::par(mfrow = c(3L, 1L), mar = c(3.5, 4, 1.5, 1),
                       mgp = c(2, 0.7, 0))
  on.exit(graphics::par(old))
  band <- function(g, m, s, col) {
    graphics::polygon(c(g, rev(g)), c(m - 2 * s, rev(m + 2 * s)),
                      col = col, border = NA)
    graphics::lines(g, m, lwd = 2)
  }
  pf$mean <- user_value(pr, pf$mean)
  yl <- range(c(pf$mean - 2 * pf$sd, pf$mean + 2 * pf$sd,
                user_value(pr, x$value[ok])))
  graphics::plot(grid, pf$mean, type = "n", ylim = yl, xlab = "x",
                 ylab = "objective", main = "posterior of the objective (mean +- 2 sd)")
  band(grid[, 1L], pf$mean, pf$sd, grDevices::adjustcolor("steelblue", 0.3))
  graphics::points(x$X[ok, 1L], user_value(pr, x$value[ok]), pch = 19)
  if (pr$cost_type == "known") {
    cv <- apply(grid, 1L, pr$cost)
    graphics::plot(grid, cv, type = "l", lwd = 2, xlab = "x", ylab = "cost",
                   main = "known cost")
  } else if (!is.null(state$models$cost)) {
    pc <- predict(state$models$cost, grid)
    graphics::plot(grid, exp(pc$mean), type = "n", log = "y",
                   ylim = exp(range(c(pc$mean - 2 * pc$sd, pc$mean + 2 * pc$sd))),
                   xlab = "x", ylab = "cost",
                   main = "posterior of the cost (median, 95% band)")
    graphics::polygon(c(grid, rev(grid)),
                      exp(c(pc$mean - 2 * pc$sd, rev(pc$mean + 2 * pc$sd))),
                      col = grDevices::adjustcolor("darkorange", 0.3),
                      border = NA)
    graphics::lines(grid, exp(pc$mean), lwd = 2)
    graphics::points(x$X[ok, 1L], x$cost[ok], pch = 19)
  } else {
    graphics::plot(x$X[ok, 1L], x$cost[ok], pch = 19, xlab = "x",
                   ylab = "cost", main = "observed costs")
  }
  graphics::plot(grid, acq, type = "l", lwd = 2, xlab = "x",
                 ylab = "acquisition", main = x$policy$label)
  i <- which.max(acq)
  graphics::abline(v = grid[i], lty = 2, col = "firebrick")
}

plot_cvs_regret <- function(x, ...) {
  df <- as.data.frame(x)
  bo <- df$phase == "bo" & !is.na(df$simple_regret)
  if (!any(bo)) stop_costbo("the run has no evaluations after its initial design")
  spent <- cumsum(ifelse(df$phase == "bo" & x$charged, df$cost, 0))[bo]
  r <- df$simple_regret[bo]
  cs <- df$control_set[bo]
  m <- length(x$problem$control_sets)
  pal <- grDevices::hcl.colors(max(m, 2L), "Dark 3")
  log_y <- if (all(r > 0)) "y" else ""
  graphics::plot(spent, r, type = "n", log = log_y, xlab = "cost spent",
                 ylab = "simple regret",
                 main = sprintf("%s on \"%s\"", x$policy$label,
                                x$problem$name), ...)
  graphics::lines(spent, r, type = "s", lwd = 2)
  graphics::points(spent, r, pch = 19, cex = 0.7, col = pal[cs])
  graphics::abline(v = x$budget, lty = 3, col = "grey40")
  sets <- vapply(x$problem$control_sets, function(s) {
    paste0("{", paste(s, collapse = ","), "}")
  }, "")
  graphics::legend("topright", bty = "n", cex = 0.75, pch = 19,
                   col = pal[seq_len(m)],
                   legend = paste0(sets, " (", format(x$problem$control_costs),
                                   ")"))
}
