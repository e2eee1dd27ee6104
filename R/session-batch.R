# What bo_ask() proposes: one point or a batch of points for parallel
# experiments, each with its predicted cost, and the session's pending
# points. The points of a batch are proposed one after another, each given
# the ones before it (and the session's pending points) as kriging-believer
# fantasies: async_fantasy_state(), the state the policies of asynchronous
# runs see. bo_tell() takes them in any order; once one of a batch is told,
# the others are pending in the session until they are told too.

# The proposals of bo_ask(session, n) from a checked session: a list of n
# of them (fewer, with a warning, when the budget or the policy stops the
# batch early), each list(p, price, predicted): the proposal as
# state_propose() gives it, its price (problem_price()), its entry as a
# pending point (list(step, bound, phase), as in asynchronous runs) and its
# predicted cost in the state the budget rule saw, given what remains
# (cost_predict_step(): the price itself when it is known; the calibrated
# median, 90% interval and probability of fitting of a measured cost). The
# budget rule's seconds are in each p's rule_time, the first's counting
# `rule_time`, those of the session's check before (check_session_budget()).
session_ask <- function(session, n, rule_time = 0) {
  pr <- session$problem
  if (n > 1L && inherits(pr, c("bo_problem_cvs", "bo_problem_miso"))) {
    stop_arg("n", paste("1 for problems with control sets or information",
                        "sources (their steps are not points that can be",
                        "fantasized)"), n)
  }
  pend <- session$pending
  out <- list()
  if (session_in_design(session)) {
    # costbo's initial design first (session-design.R)
    d <- session_ask_design(session, n, pend)
    out <- d$out
    if (d$status != "ended") {
      if (length(out) < n) {
        why <- switch(d$status,
          wait = paste("the next point waits for the results of the",
                       "initial design's pending points (tell them first)"),
          budget = d$reason)
        if (!length(out)) {
          if (d$status == "budget") stop_budget(session, why)
          stop(costbo_condition(c("costbo_error_design", "costbo_error"),
                                paste0("bo_ask(): ", why, "."),
                                user_call()))
        }
        warn_batch(n, length(out), why)
      }
      return(out)
    }
    pend <- d$pend
  }
  t0 <- proc.time()[["elapsed"]]
  st <- state_fit(session)
  fit_time <- proc.time()[["elapsed"]] - t0
  k0 <- length(out)
  for (k in seq_len(n)[seq_len(n) > k0]) {
    st$pending <- pend
    fs <- async_fantasy_state(st)
    t1 <- proc.time()[["elapsed"]]
    pol <- st$policy$propose(fs)
    step <- proposal_step(pr, pol, fs)
    p <- list(step = step, x = step$x, info = pol$info, memory = pol$memory,
              fit_time = if (k == k0 + 1L) fit_time else 0,
              policy_time = proc.time()[["elapsed"]] - t1, state = st,
              fantasy = fs, control_set = pol$control_set,
              source = pol$source)
    # the budget counts the pending points' costs (async_bound())
    remaining <- st$budget - st$spent - async_pending_cost(st)
    # the proposal's price, worked out once (the budget rule's, unless the
    # rule or the pending points move the proposal)
    priced <- list(step = step, pc = problem_price(pr, step))
    t2 <- proc.time()[["elapsed"]]
    alt <- session_budget_rule(fs, p, remaining, priced$pc)
    p <- alt$p
    if (!is.null(p)) {
      p$rule_time <- proc.time()[["elapsed"]] - t2 +
        if (k == 1L) rule_time else 0
    }
    if (!alt$none && session_repeats(pend, p$step, pr)) {
      p <- session_distinct(fs, p, pend)
    }
    end <- NULL
    if (alt$none) {
      end <- "no point fits in the remaining budget"
    } else if (is.null(p)) {
      end <- "every point the policy values is pending"
    } else {
      step <- p$step
      pc <- if (identical(step, priced$step)) priced$pc else
        problem_price(pr, step)
      entry <- list(step = step, bound = async_bound(st, step, pc$cost, "bo"),
                    phase = "bo")
      # (a point whose known cost fails is asked; bo_tell() says why)
      if (!nzchar(pc$message) &&
          !session_fits(pc$cost, entry$bound, remaining,
                        k + length(pend) > 1L)) {
        end <- "the next point would not fit in the remaining budget"
      }
    }
    if (!is.null(end)) {
      if (!length(out)) stop_budget(session, end)
      warn_batch(n, k - 1L, end)
      break
    }
    pend <- c(pend, list(entry))
    st$memory <- p$memory
    out[[k]] <- list(p = p, price = pc, entry = entry,
                     predicted = cost_predict_step(fs, step, pc$cost,
                                                   remaining))
  }
  out
}

# The budget rule of bo_ask() for the policy's proposal p, of price pc,
# made in the state fs (the pending points fantasized) with `remaining`
# budget: list(p, none), as budget_apply_rule() gives it in bo_optimize();
# session_ask() then checks the point against the budget.
session_budget_rule <- function(fs, p, remaining, pc) {
  budget_apply_rule(fs, p, remaining, pc)
}

# Whether a point of known price `cost` (NA: measured) and cost counted
# `bound` fits in `remaining`: a known cost when it is at most
# `remaining`; a measured one, when other points are pending (`others`),
# when its posterior mean cost is at most `remaining` (a lone point of
# measured cost is not checked: its price is known only once paid, as in
# bo_optimize()).
session_fits <- function(cost, bound, remaining, others) {
  if (!is.na(cost)) return(cost <= remaining * (1 + 1e-12))
  !others || bound <= remaining * (1 + 1e-12)
}

# When the policy proposes a pending point again (a fantasy keeps some
# variance where the model has noise, so a cheap point can stay the best):
# the proposal p, made in the state fs, moved to the point the policy's
# acquisition values most among those not pending: the candidates of a
# finite domain, else scrambled Sobol points of the box (64 per input, at
# most 1024); NULL when none is left. (Typed points are moved off pending
# ones by problem_step().)
session_distinct <- function(fs, p, pend) {
  pr <- fs$problem
  X <- problem_points(pr, min(1024L, 64L * pr$d))
  keep <- !vapply(seq_len(nrow(X)), function(i) {
    session_repeats(pend, list(x = X[i, ]), pr)
  }, NA)
  X <- X[keep, , drop = FALSE]
  if (!nrow(X)) return(NULL)
  a <- fs$policy$acquisition(fs, X)
  k <- which.max(replace(a, !is.finite(a), -Inf))
  if (!length(k)) return(NULL)
  x <- problem_proposal_x(pr, X[k, , drop = FALSE])
  p$step <- problem_step(pr, list(x = x), fs)
  p$x <- p$step$x
  p$info$acquisition <- a[k]
  p
}

# A batch that ends before its n points: a warning of class
# costbo_warning_batch saying why.
warn_batch <- function(n, got, why) {
  warning(costbo_condition(
    c("costbo_warning_batch", "costbo_warning"),
    sprintf("bo_ask() proposes %d of the %d points asked: %s", got, n, why),
    type = "warning"))
}

# The bo_point of proposal `a` of session_ask(), with the batch it belongs
# to (`batch`: list(key, entries), the entries as pending points) and the
# policy's memory after the batch (`memory`). A known price worked out is
# kept with the point it is of (`price`: list(x, cost)), so that bo_tell()
# of that point does not call the cost function again.
session_point <- function(session, a, batch, memory) {
  p <- a$p
  x <- problem_ask_point(session$problem, p$step, p)
  price <- if (!nzchar(a$price$message) && !is.na(a$price$cost)) {
    list(x = p$step$x, cost = a$price$cost)
  }
  structure(x, info = p$info, memory = memory, models = p$state$models,
            fit_time = p$fit_time, policy_time = p$policy_time,
            rule_time = p$rule_time, control_set = p$control_set,
            source = p$source,
            predicted_cost = unname(a$predicted[["cost_predicted"]]),
            cost_interval = unname(a$predicted[c("cost_lower",
                                                 "cost_upper")]),
            prob_fit = unname(a$predicted[["prob_fit"]]),
            cost_prediction = a$predicted,
            cost_known = !is.na(a$price$cost), price = price, batch = batch,
            class = c(if (is.list(x)) "bo_point_typed", "bo_point"))
}

# The prediction of its cost that a point of bo_ask() carries, as a step
# records it (cost_predict_step()); NULL for coordinates told without it.
session_point_prediction <- function(src) {
  pred <- if (inherits(src, "bo_point")) attr(src, "cost_prediction")
  if (is.numeric(pred) && all(cost_record_all %in% names(pred))) pred
}

# The points of session_ask() as bo_ask() returns them: one bo_point, or a
# bo_batch (a list of them) when n > 1.
session_points <- function(session, asked, n) {
  entries <- lapply(asked, function(a) a$entry)
  key <- paste(sprintf("%.17g", unlist(lapply(entries, function(e) {
    e$step$x
  }))), collapse = ",")
  # (a single point is told back as it is: nothing of it stays pending,
  # and a problem with control sets tells its realized full query)
  batch <- if (n > 1L) list(key = key, entries = entries)
  memory <- asked[[length(asked)]]$p$memory
  pts <- lapply(asked, session_point, session = session, batch = batch,
                memory = memory)
  if (n == 1L) pts[[1L]] else structure(pts, class = "bo_batch")
}

# bo_tell() of the point `src` (what bo_ask() returned, or bare
# coordinates) at `step`: the first told point of a batch makes the
# batch's points pending in the session; a told point is no longer pending.
session_told <- function(session, src, step) {
  pend <- session$pending
  batch <- if (inherits(src, "bo_point")) attr(src, "batch")
  if (!is.null(batch) && !(batch$key %in% session$batches)) {
    pend <- c(pend, batch$entries)
    session$batches <- c(session$batches, batch$key)
  }
  if (length(pend)) {
    tol <- 1e-8 * (session$problem$upper - session$problem$lower)
    hit <- which(vapply(pend, function(e) {
      all(abs(e$step$x - step$x) <= tol)
    }, NA))
    if (length(hit)) pend[[hit[1L]]] <- NULL
  }
  session$pending <- if (length(pend)) pend
  session
}

# A line on a point's predicted cost.
print_point_cost <- function(x) {
  cost <- attr(x, "predicted_cost")
  if (is.null(cost) || is.na(cost)) return(invisible())
  ci <- attr(x, "cost_interval")
  if (isTRUE(attr(x, "cost_known"))) {
    cat(sprintf("  cost %s (known)\n", format(cost, digits = 4)))
  } else if (anyNA(ci)) {
    cat(sprintf("  predicted cost %s (the geometric mean of the costs seen)\n",
                format(cost, digits = 4)))
  } else {
    cat(sprintf("  predicted cost %s (90%% interval %s to %s)\n",
                format(cost, digits = 4), format(ci[1L], digits = 4),
                format(ci[2L], digits = 4)))
  }
  invisible()
}

#' @export
print.bo_batch <- function(x, ...) {
  cat(sprintf(paste("%d points to evaluate at once (tell them in any",
                    "order):\n"), length(x)))
  for (i in seq_along(x)) {
    cat(sprintf("[[%d]] ", i))
    print(x[[i]])
  }
  invisible(x)
}
