// `node --import engine/cli/testing/without-tsx.mjs …` (or in NODE_OPTIONS, so child processes get it too): tsx cannot
// be loaded, as where only the app's runtime dependencies are installed. What the compiled-engine tests run under.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        if (/^tsx(\\/|$)/.test(specifier)) {
          throw Object.assign(new Error(\`Cannot find package '\${specifier}': tsx is not installed here\`), { code: 'ERR_MODULE_NOT_FOUND' });
        }
        return next(specifier, context);
      }`),
);
