// An app on the ModernUIKit model: it makes a launch's worth of image requests through every
// path of the call graph and writes its own record of each *request* (one line per call the
// app makes: kind, the entry point it called, the name), the truth a capture is checked against.
//
// usage: ModernApp RECORD [threads]   (with `threads`, a second thread loads icons meanwhile)
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct { const char *utf8; } NSStr;
typedef struct { NSStr *name; } ImageAsset;

void *UIImage_imageNamed(void *, void *, NSStr *) __asm__("+[UIImage imageNamed:]");
void *UIImage_imageNamedCompatible(void *, void *, NSStr *, void *, void *) __asm__("+[UIImage imageNamed:inBundle:compatibleWithTraitCollection:]");
void *UIImage_imageNamedInBundleWithConfiguration(void *, void *, NSStr *, void *, void *) __asm__("+[UIImage imageNamed:inBundle:withConfiguration:]");
void *UIImage_systemImageNamed(void *, void *, NSStr *) __asm__("+[UIImage systemImageNamed:]");
void *UIImage_imageWithContentsOfFile(void *, void *, NSStr *) __asm__("+[UIImage imageWithContentsOfFile:]");
void *Nib_initWithCoder(void *, void *, NSStr *) __asm__("-[UIImageNibPlaceholder initWithCoder:]");
void *UIImageAsset_imageWithConfiguration(ImageAsset *, void *, void *) __asm__("-[UIImageAsset imageWithConfiguration:]");
void *NSDataAsset_initWithNameBundle(void *, void *, NSStr *, void *) __asm__("-[NSDataAsset initWithName:bundle:]");
void *swiftui_load_bitmap(NSStr *);

static FILE *record;
static pthread_mutex_t record_lock = PTHREAD_MUTEX_INITIALIZER;
static int uiimage_class;

static void note(const char *kind, const char *entry, const char *name) {
    pthread_mutex_lock(&record_lock);
    fprintf(record, "%s\t%s\t%s\n", kind, entry, name);
    fflush(record);
    pthread_mutex_unlock(&record_lock);
}

static void code(const char *name) {
    NSStr s = {name};
    note("code", "+[UIImage imageNamed:]", name);
    UIImage_imageNamed(&uiimage_class, "imageNamed:", &s);
}

static void *icons(void *unused) {
    for (int i = 0; i < 40; i++) code("worker_icon");
    return 0;
}

int main(int argc, char **argv) {
    record = fopen(argv[1], "w");
    int threads = argc > 2 && strcmp(argv[2], "threads") == 0;
    pthread_t worker;
    if (threads) pthread_create(&worker, 0, icons, 0);
    code("AppIcon");
    code("tab_home");
    code("tab_home");  // a cache hit: stops in UIKit's funnel
    for (int i = 0; i < 3; i++) code("Placeholder");  // a cell asking per row
    NSStr search = {"tab_search"};
    note("code", "+[UIImage imageNamed:inBundle:compatibleWithTraitCollection:]", "tab_search");
    UIImage_imageNamedCompatible(&uiimage_class, "imageNamed:inBundle:compatibleWithTraitCollection:", &search, 0, 0);
    NSStr configured = {"hero_banner"};
    note("code", "+[UIImage imageNamed:inBundle:withConfiguration:]", "hero_banner");
    UIImage_imageNamedInBundleWithConfiguration(&uiimage_class, "imageNamed:inBundle:withConfiguration:", &configured, 0, 0);
    const char *nib[] = {"header_logo", "Placeholder", "Placeholder"};  // a storyboard, then two cells from a nib
    for (int i = 0; i < 3; i++) {
        NSStr s = {nib[i]};
        note("nib", "-[UIImageNibPlaceholder initWithCoder:]", nib[i]);
        Nib_initWithCoder(0, "initWithCoder:", &s);
    }
    const char *views[] = {"promo_card", "promo_card"};  // SwiftUI evaluates a body twice
    for (int i = 0; i < 2; i++) {
        NSStr s = {views[i]};
        note("swiftui", "-[CUICatalog imageWithName:scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]", views[i]);
        swiftui_load_bitmap(&s);
    }
    NSStr star = {"star.fill"};
    note("symbol", "+[UIImage systemImageNamed:]", "star.fill");
    UIImage_systemImageNamed(&uiimage_class, "systemImageNamed:", &star);
    NSStr header = {"header_logo"};
    ImageAsset asset = {&header};
    note("trait", "-[UIImageAsset imageWithConfiguration:]", "header_logo");  // dark mode: the asset decodes again
    UIImageAsset_imageWithConfiguration(&asset, "imageWithConfiguration:", 0);
    NSStr data = {"onboarding_json"};
    note("data", "-[NSDataAsset initWithName:bundle:]", "onboarding_json");
    NSDataAsset_initWithNameBundle(0, "initWithName:bundle:", &data, 0);
    NSStr path = {"/var/containers/Bundle/Application/App.app/big_photo.jpg"};
    note("file", "+[UIImage imageWithContentsOfFile:]", path.utf8);
    UIImage_imageWithContentsOfFile(&uiimage_class, "imageWithContentsOfFile:", &path);
    if (threads) pthread_join(worker, 0);
    fclose(record);
    return 0;
}
