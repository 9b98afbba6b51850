/** Record detail. The page loads lazily through `./routes`; nothing else is shared yet. */
export {};
