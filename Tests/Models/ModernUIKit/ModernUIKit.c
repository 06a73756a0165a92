// A model of how iOS 18's UIKit, CoreUI and SwiftUI look up a named image, for testing captures
// on Linux (docs: ../shared/docs/apple-image-paths.md, "The call graph"; README "Capturing").
//
// Every function carries the real method's symbol through an asm label, so lldb and imgtrace
// find it by name as they find UIKit's, and follows the real call graph: public class methods
// call each other, storyboards and SwiftUI never call +[UIImage imageNamed:], SF Symbols,
// trait changes and data assets have entry points of their own. The name is the third
// argument ($arg3) wherever the real method has it. Built by clang without debug information,
// as UIKit ships, at -O0 (every call a call) and at -O2, where a wrapper whose last act is a call
// becomes a `jmp` as in Apple's optimized frameworks: its frame is gone from the stack.
//
// An "NSString" is a struct whose first field is its UTF-8 text; sel_registerName and
// objc_msgSend below are what lldb's expression evaluator calls for [(id)$arg3 UTF8String], so
// the very script imgtrace writes for Apple platforms runs against this model.
#include <pthread.h>
#include <string.h>

typedef struct { const char *utf8; } NSStr;

void *sel_registerName(const char *name) { return (void *)name; }

void *objc_msgSend(void *self, void *sel, ...) {
    if (self && sel && strcmp((const char *)sel, "UTF8String") == 0) return (void *)((NSStr *)self)->utf8;
    return 0;
}

#define METHOD(symbol) __attribute__((noinline, used)) __asm__(symbol)
// Every name argument is used, so no caller may leave it out (clang drops arguments a callee
// in the same file ignores, and the name must be in $arg3 as UIKit's is).
#define USE(x) __asm__ volatile("" ::"r"(x) : "memory")

// The image object, hidden from the optimizer: no caller may fold a callee's result into a
// constant (which would turn its tail call back into a call and a `ret`).
static inline void *opaque(void *object) {
    __asm__ volatile("" : "+r"(object));
    return object;
}

// UIKit's process-wide image cache: a name loaded once is a cache hit afterwards.
static const char *cache[512];
static int cached;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static int cache_lookup(const char *name) {
    pthread_mutex_lock(&cache_lock);
    int found = 0;
    for (int i = 0; i < cached; i++) found |= strcmp(cache[i], name) == 0;
    pthread_mutex_unlock(&cache_lock);
    return found;
}

static void cache_insert(const char *name) {
    pthread_mutex_lock(&cache_lock);
    if (cached < 512) cache[cached++] = name;
    pthread_mutex_unlock(&cache_lock);
}

static int token;
static void *image_object = &token;

// CoreUI.
void *CUI_namedLookup(void *self, void *sel, NSStr *name, double scale, long idiom, long subtype, long gamut, long direction, long h, long v,
                      void *appearance, void *locale)
    METHOD("-[CUICatalog namedLookupWithName:scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]");
void *CUI_namedLookup(void *self, void *sel, NSStr *name, double scale, long idiom, long subtype, long gamut, long direction, long h, long v,
                      void *appearance, void *locale) {
    USE(name);
    return opaque(image_object);
}

void *CUI_imageWithName(void *self, void *sel, NSStr *name, double scale, long idiom, long subtype, long gamut, long direction, long h, long v,
                        void *appearance, void *locale)
    METHOD("-[CUICatalog imageWithName:scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]");
void *CUI_imageWithName(void *self, void *sel, NSStr *name, double scale, long idiom, long subtype, long gamut, long direction, long h, long v,
                        void *appearance, void *locale) {
    USE(name);
    return opaque(image_object);
}

void *CUI_namedVectorGlyph(void *self, void *sel, NSStr *name, double scale, long idiom, long direction, long size, long weight, double points,
                           void *appearance)
    METHOD("-[CUICatalog namedVectorGlyphWithName:scaleFactor:deviceIdiom:layoutDirection:glyphSize:glyphWeight:glyphPointSize:appearanceName:]");
void *CUI_namedVectorGlyph(void *self, void *sel, NSStr *name, double scale, long idiom, long direction, long size, long weight, double points,
                           void *appearance) {
    USE(name);
    return opaque(image_object);
}

void *CUI_dataWithName(void *self, void *sel, NSStr *name) METHOD("-[CUICatalog dataWithName:]");
void *CUI_dataWithName(void *self, void *sel, NSStr *name) {
    USE(name);
    return opaque(image_object);
}

void *CUI_defaultCatalog(void *cls, void *sel, void *bundle) METHOD("+[CUICatalog defaultUICatalogForBundle:]");
void *CUI_defaultCatalog(void *cls, void *sel, void *bundle) {
    USE(bundle);
    return opaque(image_object);
}

// _UIAssetManager: the app's catalog manager, and CoreGlyphs' for SF Symbols.
static int app_manager, glyph_manager;

void *AM_lookup(void *self, void *sel, NSStr *name, void *configuration, long caching, int attach)
    METHOD("-[_UIAssetManager imageNamed:configuration:cachingOptions:attachCatalogImage:]");
void *AM_lookup(void *self, void *sel, NSStr *name, void *configuration, long caching, int attach) {
    if (self == &glyph_manager) return CUI_namedVectorGlyph(0, "namedVectorGlyphWithName:", name, 3, 1, 0, 2, 4, 17, 0);
    return CUI_namedLookup(0, "namedLookupWithName:", name, 3, 1, 0, 0, 0, 1, 2, 0, 0);
}

void *AM_imageNamedConfiguration(void *self, void *sel, NSStr *name, void *configuration) METHOD("-[_UIAssetManager imageNamed:configuration:]");
void *AM_imageNamedConfiguration(void *self, void *sel, NSStr *name, void *configuration) {
    return AM_lookup(self, "imageNamed:configuration:cachingOptions:attachCatalogImage:", name, configuration, 1, 1);
}

void *AM_imageNamedScaleIdiomSubtype(void *self, void *sel, NSStr *name, double scale, long idiom, long subtype)
    METHOD("-[_UIAssetManager imageNamed:scale:idiom:subtype:]");
void *AM_imageNamedScaleIdiomSubtype(void *self, void *sel, NSStr *name, double scale, long idiom, long subtype) {
    return AM_lookup(self, "imageNamed:configuration:cachingOptions:attachCatalogImage:", name, 0, 1, 1);
}

void *AM_imageNamedIdiomSubtype(void *self, void *sel, NSStr *name, long idiom, long subtype) METHOD("-[_UIAssetManager imageNamed:idiom:subtype:]");
void *AM_imageNamedIdiomSubtype(void *self, void *sel, NSStr *name, long idiom, long subtype) {
    return AM_imageNamedScaleIdiomSubtype(self, "imageNamed:scale:idiom:subtype:", name, 3, idiom, subtype);
}

void *AM_imageNamedIdiom(void *self, void *sel, NSStr *name, long idiom) METHOD("-[_UIAssetManager imageNamed:idiom:]");
void *AM_imageNamedIdiom(void *self, void *sel, NSStr *name, long idiom) {
    return AM_imageNamedIdiomSubtype(self, "imageNamed:idiom:subtype:", name, idiom, 0);
}

void *AM_imageNamed(void *self, void *sel, NSStr *name) METHOD("-[_UIAssetManager imageNamed:]");
void *AM_imageNamed(void *self, void *sel, NSStr *name) {
    return AM_imageNamedIdiom(self, "imageNamed:idiom:", name, 1);
}

// UIImage's class methods.
void *UIImage_imageNamedInBundleWithConfiguration(void *cls, void *sel, NSStr *name, void *bundle, void *configuration)
    METHOD("+[UIImage imageNamed:inBundle:withConfiguration:]");
void *UIImage_imageNamedInBundleWithConfiguration(void *cls, void *sel, NSStr *name, void *bundle, void *configuration) {
    // The UIKit funnel: cache hits stop here, first loads go down to CoreUI.
    if (cache_lookup(name->utf8)) return image_object;
    void *image = AM_imageNamedConfiguration(&app_manager, "imageNamed:configuration:", name, configuration);
    cache_insert(name->utf8);
    return image;
}

void *UIImage_imageNamed(void *cls, void *sel, NSStr *name) METHOD("+[UIImage imageNamed:]");
void *UIImage_imageNamed(void *cls, void *sel, NSStr *name) {
    return UIImage_imageNamedInBundleWithConfiguration(cls, "imageNamed:inBundle:withConfiguration:", name, 0, 0);
}

void *UIImage_imageNamedCompatible(void *cls, void *sel, NSStr *name, void *bundle, void *traits)
    METHOD("+[UIImage imageNamed:inBundle:compatibleWithTraitCollection:]");
void *UIImage_imageNamedCompatible(void *cls, void *sel, NSStr *name, void *bundle, void *traits) {
    return UIImage_imageNamedInBundleWithConfiguration(cls, "imageNamed:inBundle:withConfiguration:", name, bundle, 0);
}

void *UIImage_systemImageNamedPrivate(void *cls, void *sel, NSStr *name, void *configuration, int allowPrivate)
    METHOD("+[UIImage _systemImageNamed:withConfiguration:allowPrivate:]");
void *UIImage_systemImageNamedPrivate(void *cls, void *sel, NSStr *name, void *configuration, int allowPrivate) {
    return AM_imageNamedConfiguration(&glyph_manager, "imageNamed:configuration:", name, configuration);
}

void *UIImage_systemImageNamedConfiguration(void *cls, void *sel, NSStr *name, void *configuration)
    METHOD("+[UIImage systemImageNamed:withConfiguration:]");
void *UIImage_systemImageNamedConfiguration(void *cls, void *sel, NSStr *name, void *configuration) {
    return UIImage_systemImageNamedPrivate(cls, "_systemImageNamed:withConfiguration:allowPrivate:", name, configuration, 0);
}

void *UIImage_systemImageNamed(void *cls, void *sel, NSStr *name) METHOD("+[UIImage systemImageNamed:]");
void *UIImage_systemImageNamed(void *cls, void *sel, NSStr *name) {
    return UIImage_systemImageNamedConfiguration(cls, "systemImageNamed:withConfiguration:", name, 0);
}

void *UIImage_initWithContentsOfFile(void *self, void *sel, NSStr *path) METHOD("-[UIImage initWithContentsOfFile:]");
void *UIImage_initWithContentsOfFile(void *self, void *sel, NSStr *path) {
    USE(path);
    return opaque(image_object);
}

void *UIImage_imageWithContentsOfFile(void *cls, void *sel, NSStr *path) METHOD("+[UIImage imageWithContentsOfFile:]");
void *UIImage_imageWithContentsOfFile(void *cls, void *sel, NSStr *path) {
    return UIImage_initWithContentsOfFile(image_object, "initWithContentsOfFile:", path);
}

// A storyboard or xib image: the placeholder decodes UIResourceName and asks the asset manager
// directly, never +[UIImage imageNamed:]. The "coder" here is the name itself.
void *Nib_initWithCoder(void *self, void *sel, NSStr *coder) METHOD("-[UIImageNibPlaceholder initWithCoder:]");
void *Nib_initWithCoder(void *self, void *sel, NSStr *coder) {
    return AM_imageNamed(&app_manager, "imageNamed:", coder);
}

// A trait change: the image asset decodes again through CoreUI, no imageNamed… call.
typedef struct { NSStr *name; } ImageAsset;

void *UIImageAsset_imageWithConfiguration(ImageAsset *self, void *sel, void *configuration) METHOD("-[UIImageAsset imageWithConfiguration:]");
void *UIImageAsset_imageWithConfiguration(ImageAsset *self, void *sel, void *configuration) {
    return CUI_imageWithName(0, "imageWithName:", self->name, 3, 1, 0, 0, 0, 1, 2, 0, 0);
}

// NSDataAsset(name:): data, not an image.
void *NSDataAsset_initWithNameBundle(void *self, void *sel, NSStr *name, void *bundle) METHOD("-[NSDataAsset initWithName:bundle:]");
void *NSDataAsset_initWithNameBundle(void *self, void *sel, NSStr *name, void *bundle) {
    void *catalog = CUI_defaultCatalog(0, "defaultUICatalogForBundle:", bundle);
    return CUI_dataWithName(catalog, "dataWithName:", name);
}

// SwiftUI's Image("x"): a Swift function (NamedImage.BitmapKey.loadBitmapInfo) that calls
// CoreUI directly; not an image API of UIKit's.
__attribute__((noinline, used)) void *swiftui_load_bitmap(NSStr *name) {
    return CUI_imageWithName(0, "imageWithName:", name, 3, 1, 0, 0, 0, 1, 2, 0, 0);
}
