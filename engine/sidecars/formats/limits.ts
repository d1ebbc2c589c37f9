/** Upper bound of any time in a sidecar: 24 hours. A larger value is almost always milliseconds given as seconds. */
export const MAX_TIMELINE_SECONDS = 24 * 60 * 60;
