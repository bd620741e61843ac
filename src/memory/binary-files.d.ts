// Files the bundle embeds as they are (`import path from "./x.bin" with { type: "file" }`): the
// import gives their path, inside the binary or in a source checkout.
declare module "*.bin" {
  const path: string;
  export default path;
}
