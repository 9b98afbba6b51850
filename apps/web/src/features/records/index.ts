/** Records. The pages load lazily through `./routes`; nothing else is shared yet. */
export {};
