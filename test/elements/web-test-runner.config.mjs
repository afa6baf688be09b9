// The project's config plus React as ES modules, for the element tests (test/elements/react.test.ts).
// Run: npx web-test-runner --config test/elements/web-test-runner.config.mjs
import base from '../../web-test-runner.config.mjs';
import { reactEsmPlugin } from './wtr-react-plugin.mjs';

export default {
  ...base,
  files: ['test/elements/**/*.test.ts'],
  groups: undefined,
  plugins: [reactEsmPlugin(), ...base.plugins],
  coverageConfig: { ...base.coverageConfig, include: ['elements/**/*.ts'] },
};
