/** Version of the kit, named in evidence manifests. Keep in step with package.json. */
export const KIT_VERSION = '0.1.0';
