# Several runs together: c() of runs.

#' Combine runs
#'
#' `c()` of runs (of [bo_optimize()], or sessions) gives a list of runs of
#' class `bo_runs`, named by the arguments' names (`c(EI = a, PU = b)`),
#' whose `print()` gives one line per run and whose `as.data.frame()` stacks
#' the runs' records with a column `run`. To compare policies over
#' replications, use [bo_benchmark()].
#'
#' @param ... Runs (`bo_run`, `bo_session` or `bo_runs`).
#' @param x A `bo_runs`.
#' @param row.names,optional As in [as.data.frame()].
#' @return `c()`: a `bo_runs`. `as.data.frame()`: a data frame of every
#'   run's records ([as.data.frame.bo_run()]) after a column `run` (the
#'   run's name, or its position).
#' @family runs
#' @examples
#' prob <- test_problem("branin", budget = 5)
#' a <- bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE)
#' b <- bo_optimize(prob, policy_ei_pu(), seed = 1, progress = FALSE)
#' runs <- c(EI = a, `EI-PU` = b)
#' runs
#' table(as.data.frame(runs)$run)
#' @export
c.bo_run <- function(...) {
  args <- list(...)
  nm <- names(args)
  out <- list()
  for (k in seq_along(args)) {
    a <- args[[k]]
    if (inherits(a, "bo_runs")) {
      out <- c(out, unclass(a))
    } else if (inherits(a, c("bo_run", "bo_session"))) {
      item <- list(a)
      names(item) <- if (is.null(nm) || !nzchar(nm[k])) "" else nm[k]
      out <- c(out, item)
    } else {
      stop_arg("...", sprintf(paste("runs (bo_run, bo_session or bo_runs",
                                    "objects), but argument %d is %s"), k,
                              describe_value(a)), show = FALSE)
    }
  }
  if (all(!nzchar(names(out)))) names(out) <- NULL
  structure(out, class = "bo_runs")
}

#' @rdname c.bo_run
#' @export
c.bo_runs <- c.bo_run

#' @rdname c.bo_run
#' @export
c.bo_session <- c.bo_run

#' @rdname c.bo_run
#' @export
print.bo_runs <- function(x, ...) {
  cat(sprintf("%d runs\n", length(x)))
  labels <- runs_labels(x)
  for (k in seq_along(x)) {
    r <- x[[k]]
    s <- summary(structure(unclass(r), class = "bo_run"))
    cat(sprintf("  %s: %s on %s, %d evaluations, spent %s of %s, best %s\n",
                labels[k], r$policy$label, r$problem$name,
                length(r$value), format(signif(r$spent, 4)),
                format(signif(r$budget, 4)),
                format(signif(s$best_value, 6))))
  }
  invisible(x)
}

#' @rdname c.bo_run
#' @export
as.data.frame.bo_runs <- function(x, row.names = NULL, optional = FALSE,
                                  ...) {
  labels <- runs_labels(x)
  dfs <- lapply(seq_along(x), function(k) {
    df <- as.data.frame(structure(unclass(x[[k]]), class = "bo_run"))
    cbind(run = rep(labels[k], nrow(df)), df, stringsAsFactors = FALSE)
  })
  # runs of different problems have different columns: keep every column
  cols <- unique(unlist(lapply(dfs, names)))
  dfs <- lapply(dfs, function(d) {
    for (m in setdiff(cols, names(d))) d[[m]] <- NA
    d[cols]
  })
  out <- do.call(rbind, dfs)
  rownames(out) <- check_row_names(row.names, nrow(out))
  out
}

# The names of runs, or their positions.
runs_labels <- function(x) {
  nm <- names(x)
  pos <- as.character(seq_along(x))
  if (is.null(nm)) pos else ifelse(nzchar(nm), nm, pos)
}
