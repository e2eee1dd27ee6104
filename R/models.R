# The models of a run: how its GPs are refitted to the data of a state.
# Below both the state (state_fit() in state.R) and the problem classes
# (problem_fit() in problem-questions.R and the variants), which call it;
# it calls only the GP module (gp_fit()).

# The noise variance band of a GP of exact data (a deterministic objective,
# and every measured cost), on the standardized scale: the band in which the
# reference implementation of Astudillo et al. (2021) holds the noise of
# both its GPs, so that the GP (nearly) interpolates. Free noise on such data
# can explain a lone good observation as noise and flatten the posterior
# (Dropwave, seed 2: noise twice the outputscale, every EI below 1e-8).
exact_noise_band <- c(1e-4, 1e-3)

# gp_fit() of y on X over the problem's box with the user's settings
# `model_args`, warm-started from the previous fit `prev` when its kernel is
# the one asked for (and no start was given). For `exact` data the noise
# lies in the band above, unless the user set the noise model (`noise`,
# `noise_floor`, `noise_ceiling` or `estimate`): then gp_fit()'s own
# defaults fill in. The settings are checked by the run's first fit; a refit
# warm-started from a fit made with them runs with that fit's checked
# settings (gp_fit_run()), on the state's own data.
refit_gp <- function(X, y, pr, model_args, prev, exact) {
  kernel <- if (is.null(model_args$kernel)) "matern52" else model_args$kernel
  warm <- is.null(model_args$start) && !is.null(prev) &&
    identical(prev$kernel, kernel)
  if (warm && !is.null(prev$settings)) {
    storage.mode(X) <- "double"
    if (!is.null(pr$space)) X <- space_inputs(pr$space, X, "X")
    return(gp_fit_run(X, as.double(y), prev, prev$settings))
  }
  user <- c("noise", "noise_floor", "noise_ceiling", "estimate")
  if (exact && !any(user %in% names(model_args))) {
    model_args$noise_floor <- exact_noise_band[1L]
    model_args$noise_ceiling <- exact_noise_band[2L]
  }
  args <- c(list(X = X, y = y), if (is.null(pr$space)) {
    list(lower = pr$lower, upper = pr$upper)
  } else list(space = pr$space), model_args)
  if (warm) args$start <- prev
  do.call(gp_fit, args)
}
