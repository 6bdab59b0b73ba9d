// Loaded blocking in <head> (layouts/_partials/head.html): see theme.js.
import { initTheme } from './theme.js';

initTheme();
