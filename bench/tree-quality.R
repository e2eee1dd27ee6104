# Quality of the B-MS-EI tree optimizer: does policy_bmsei()'s default
# optimization (n_raw, n_starts, maxit of ?policy_bmsei) find the tree's
# maximum?
#
# Run from the repository root after installing costbo:
#   nice -n 10 Rscript bench/tree-quality.R
# TREE_QUALITY_STATES=2 runs only the first two states (to time the study);
# TREE_QUALITY_VARIANTS=path (or full) runs one variant.
#
# On 20 fixed states -- Dropwave, Alpine1, Shekel5 and Ackley from
# test_problem(name, cost_family = "cosine", seed = s), s = 1, ..., 5, at n = 10,
# 15, 20, 25, 30 evaluations of a uniformly random design (seed 100 + s) --
# with both GPs fitted with the reference implementation's noise band
# (noise_floor = 1e-4, noise_ceiling = 1e-3 on the standardized scale), the
# tree budget of the scheduled rule and fixed base samples, the 4-step tree
# (the default fantasies 4, 4, 2; and the path variant) is maximized once with
# the default settings and once with a 10x heavier optimization: 10x the raw
# points and 10x the L-BFGS-B starts from them (same iterations per start),
# 10x n_greedy (greedy trees from every distinct local maximizer of the
# root's Q1 its 10 d starts find, at most 10 d), from another seed. The
# table gives both values and their ratio default / heavy; the share of
# states with ratio >= 0.99 must be >= 90%. About 15 minutes of one core.

suppressPackageStartupMessages(library(costbo))

tq_problems <- c("dropwave", "alpine1", "shekel5", "ackley")
tq_n <- c(10L, 15L, 20L, 25L, 30L)

# A fixed state: the problem, a random design of n points evaluated, both
# GPs fitted in the reference's noise band, the scheduled tree budget and the
# tree's packed acquisition.
tq_state <- function(name, n, s, steps = 4L) {
  prob <- test_problem(name, cost_family = "cosine", seed = s)
  d <- prob$d
  set.seed(100 + s)
  U <- matrix(stats::runif(n * d), n, d)
  X <- sweep(sweep(U, 2, prob$upper - prob$lower, "*"), 2, prob$lower, "+")
  ev <- lapply(seq_len(n), function(i) prob$objective(X[i, ]))
  init <- data.frame(X, value = vapply(ev, `[[`, 0, "value"),
                     cost = vapply(ev, `[[`, 0, "cost"))
  names(init)[seq_len(d)] <- paste0("x", seq_len(d))
  band <- list(noise_floor = 1e-4, noise_ceiling = 1e-3)
  st <- bo_session(prob, policy_bmsei(), initial = init,
                   gp_args = c(band, list(cost = band)))
  set.seed(200 + s)
  st <- costbo:::state_fit(st)
  budget <- costbo:::bmsei_budget(st, steps, "ei_pu_cc", "scheduled")$budget
  list(name = name, n = n, seed = s, d = d, budget = budget,
       pack = costbo:::bmsei_pack(st, budget)$pack)
}

# The maximized tree value of a state with the given optimizer settings.
tq_value <- function(st, fantasies, path, ctl, seed) {
  set.seed(300 + st$seed)
  z <- costbo:::bmsei_base(fantasies, path)
  set.seed(seed)
  d <- st$d
  ctl <- costbo:::bmsei_control(ctl, d)
  r <- .Call(costbo:::C_tree_maximize, st$pack, fantasies, z$zf, z$zc,
             st$budget, rep(0, d), rep(1, d), ctl$n_raw,
             costbo:::bmsei_max_control(ctl), double())
  r$value
}

tq_study <- function(states, fantasies, path, label) {
  rows <- lapply(states, function(st) {
    def <- costbo:::bmsei_control(list(), st$d)
    heavy <- list(n_raw = 10L * def$n_raw, n_starts = 10L * def$n_starts,
                  n_greedy = 10L * def$n_greedy)
    t0 <- proc.time()[["elapsed"]]
    v <- tq_value(st, fantasies, path, list(), seed = 1L)
    t1 <- proc.time()[["elapsed"]]
    h <- tq_value(st, fantasies, path, heavy, seed = 2L)
    t2 <- proc.time()[["elapsed"]]
    data.frame(variant = label, problem = st$name, d = st$d, n = st$n,
               budget = st$budget, default = v, heavy = h, ratio = v / h,
               default_s = t1 - t0, heavy_s = t2 - t1)
  })
  do.call(rbind, rows)
}

tq_main <- function() {
  grid <- expand.grid(n = tq_n, problem = tq_problems,
                      stringsAsFactors = FALSE)
  grid$seed <- rep(seq_along(tq_n), length(tq_problems))
  k <- as.integer(Sys.getenv("TREE_QUALITY_STATES", nrow(grid)))
  grid <- grid[seq_len(min(k, nrow(grid))), , drop = FALSE]
  variants <- strsplit(Sys.getenv("TREE_QUALITY_VARIANTS", "full,path"),
                       ",")[[1]]
  states <- lapply(seq_len(nrow(grid)), function(i) {
    tq_state(grid$problem[i], grid$n[i], grid$seed[i])
  })
  def <- costbo:::bmsei_control(list(), 1L)
  cat(sprintf(paste("B-MS-EI tree optimizer quality, costbo %s: default",
                    "(n_raw = %d d, n_starts = %d d, maxit = %d, n_greedy =",
                    "%d d) against 10x raw points, starts and greedy trees\n"),
              format(utils::packageVersion("costbo")), def$n_raw,
              def$n_starts, def$maxit, def$n_greedy))
  out <- list()
  if ("full" %in% variants) {
    out$full <- tq_study(states, c(4L, 4L, 2L), FALSE, "full (4, 4, 2)")
  }
  if ("path" %in% variants) {
    out$path <- tq_study(states, c(1L, 1L, 1L), TRUE, "path")
  }
  for (tab in out) {
    cat("\n4-step B-MS-EI,", tab$variant[1], "\n")
    print(tab[-1], digits = 4, row.names = FALSE)
    cat(sprintf(paste("share of states with default >= 0.99 heavy: %d/%d",
                      "= %.0f%% (must be >= 90%%); CPU %.0f s\n"),
                sum(tab$ratio >= 0.99), nrow(tab),
                100 * mean(tab$ratio >= 0.99),
                sum(tab$default_s + tab$heavy_s)))
  }
  invisible(out)
}

if (sys.nframe() == 0L) tq_main()
