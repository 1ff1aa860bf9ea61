// make lint's prettier settings for web/ and edge/: the style the code is written in.
export default {
  printWidth: 120,
  trailingComma: "all",
};
