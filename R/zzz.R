# Registration of the mlr3 tuner "costbo" (R/mlr3.R) in
# mlr3tuning::mlr_tuners, as mlr3mbo registers its tuner: at once when
# mlr3tuning's namespace is already loaded, else by a hook run when it is
# loaded; removed again when costbo is unloaded.

costbo_hooks <- new.env(parent = emptyenv())

register_mlr3tuning <- function(...) {
  if (!requireNamespace("R6", quietly = TRUE) ||
      !requireNamespace("paradox", quietly = TRUE) ||
      !requireNamespace("data.table", quietly = TRUE)) {
    return(invisible(FALSE))
  }
  tuners <- utils::getFromNamespace("mlr_tuners", ns = "mlr3tuning")
  if (is.null(costbo_hooks$class)) costbo_hooks$class <- costbo_tuner_class()
  tuners$add("costbo", costbo_hooks$class)
  invisible(TRUE)
}

.onLoad <- function(libname, pkgname) {
  hook <- function(...) register_mlr3tuning()
  attr(hook, "costbo") <- TRUE
  costbo_hooks$hook <- hook
  setHook(packageEvent("mlr3tuning", "onLoad"), hook)
  if (isNamespaceLoaded("mlr3tuning")) register_mlr3tuning()
}

.onUnload <- function(libpath) {
  event <- packageEvent("mlr3tuning", "onLoad")
  hooks <- getHook(event)
  mine <- vapply(hooks, function(h) isTRUE(attr(h, "costbo")), NA)
  if (any(mine)) setHook(event, hooks[!mine], action = "replace")
  if (isNamespaceLoaded("mlr3tuning")) {
    tuners <- utils::getFromNamespace("mlr_tuners", ns = "mlr3tuning")
    if ("costbo" %in% tuners$keys()) tuners$remove("costbo")
  }
}
