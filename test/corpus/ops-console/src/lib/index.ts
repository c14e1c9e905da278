export * from './prompts.js';
export { formatRows } from './format.js';
