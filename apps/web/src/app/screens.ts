import { type ComponentType, lazy } from "react";
import { textsReady } from "../i18n";

type Module = { default: ComponentType };

/**
 * A screen's code loaded once, whoever asks first: app/first-requests.ts at start-up, or the route.
 * Once it is there the route renders it at once — React.lazy would wait a turn for the loaded
 * module and show the spinner meanwhile, and React keeps a spinner up at least 300 ms once shown.
 */
function screen(load: () => Promise<Module>) {
  let loaded: Module | undefined;
  let loading: Promise<Module> | undefined;
  const preload = () => {
    loading ??= load().then((module) => {
      loaded = module;
      return module;
    });
    return loading;
  };
  const Component = lazy(() => {
    if (!loaded) return preload();
    const module = loaded;
    // React.lazy takes the module from a thenable that calls back at once, in the same render.
    // biome-ignore lint/suspicious/noThenProperty: a synchronous thenable is the point here
    return { then: (resolve: (m: Module) => void) => resolve(module) } as Promise<Module>;
  });
  return { preload, Component };
}

/** The shell, once the language's texts behind the login are there too (i18n/index.ts). */
export const shellScreen = screen(() =>
  Promise.all([import("./Shell"), textsReady()]).then(([m]) => ({ default: m.Shell })),
);
export const homeScreen = screen(() => import("../features/home/HomePage"));
