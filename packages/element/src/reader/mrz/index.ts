export { readMrz } from './read-mrz.js';
